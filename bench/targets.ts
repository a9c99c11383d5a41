// The benchmark's targets (bench/run.ts): each a child process of its own, started the same way
// (bench/target.ts), so the comparison between the server and its baselines is fair.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { config, here, root } from './config.js';

export type TargetKind = 'server' | 'echo' | 'insert' | 'route-floor';

export interface Target {
  kind: TargetKind;
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/** Every child still running, for killTargets when the run ends early. */
const children = new Set<ChildProcess>();

export async function startTarget(kind: TargetKind, databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<Target> {
  const profiling = kind !== 'server' ? [] : [
    ...(config.allocationProfile === undefined ? [] : ['--import', './bench/allocation-profile.ts']),
    ...(config.diagnostics === undefined ? [] : ['--import', './bench/server-diagnostics.ts']),
  ];
  const execArgv = ['--import', 'tsx', ...profiling, ...(kind === 'server' ? config.serverNodeOptions : [])];
  const child = fork(join(here, 'target.ts'), [kind], {
    cwd: root,
    execArgv,
    env: { ...process.env, ...(config.diagnostics === undefined ? {} : { BENCH_DIAGNOSTICS: config.diagnostics }), DATABASE_URL: databaseUrl, BENCH_POOL_SIZE: String(config.poolSize), NODE_ENV: 'production', ...extraEnv },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  const port = await new Promise<number>((resolvePort, reject) => {
    child.once('message', (message) => resolvePort((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`target ${kind} exited with ${code} before listening`)));
  });
  return {
    kind,
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      children.delete(child);
    },
  };
}

/** Kills every target child still running (the run failed, or a stop did not complete). */
export function killTargets(): void {
  for (const child of children) child.kill('SIGKILL');
}
