// The real server as `npm start` runs it (node --import tsx server/main.ts), in a child process:
// for the tests of start-up, graceful shutdown and crash safety. Node runs the server itself, so a
// signal sent to the child reaches it (the tsx wrapper would SIGKILL its child 30 ms after passing
// a signal on, and could cut the very shutdown under test).
import { spawn, type ChildProcess } from 'node:child_process';

export { freePort } from '../../server/db/embedded.js';

export interface ServerProcess {
  process: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves once the output holds `text`; rejects on exit or after `timeoutMs`. */
  waitFor: (text: string, timeoutMs: number) => Promise<void>;
  signal: (signal: NodeJS.Signals) => void;
  /** Sends the signal to the server's whole process group (needs `detached`), as a terminal's Ctrl-C does. */
  signalGroup: (signal: NodeJS.Signals) => void;
  /** SIGKILLs the server if it still runs (after a failure, or to crash it on purpose). */
  kill: () => void;
}

export function spawnServer(env: Record<string, string>, options: { detached?: boolean } = {}): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, which the embedded PostgreSQL it starts joins.
    detached: options.detached ?? false,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const waitFor = (text: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const timer = setInterval(() => {
        if (output.includes(text)) {
          clearInterval(timer);
          resolve();
        } else if (exitCode !== undefined || Date.now() - started > timeoutMs) {
          clearInterval(timer);
          reject(new Error(`no "${text}" (exit ${exitCode}) in: ${output}`));
        }
      }, 20);
    });
  const signal = (name: NodeJS.Signals) => {
    child.kill(name);
  };
  const signalGroup = (name: NodeJS.Signals) => {
    if (child.pid !== undefined) process.kill(-child.pid, name);
  };
  const kill = () => {
    if (exitCode === undefined) child.kill('SIGKILL');
  };
  return { process: child, output: () => output, exited, waitFor, signal, signalGroup, kill };
}
