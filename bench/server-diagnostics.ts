// What the server's event loop went through during a bench run, second by second: the longest
// delay and the 99th percentile (perf_hooks' event-loop delay histogram), and the garbage
// collector's pauses (count, total, longest, and each pause over 8 ms with its kind). A slow tail
// with quick database statements points here.
//
//   BENCH_DIAGNOSTICS=bench/results/diagnostics npm run bench
//
// bench/targets.ts loads this module into the server child (`--import`) when the variable is set;
// it writes server-<pid>.log in that directory. bench/run.ts adds the database's side (lock waits,
// checkpoints, statements over 15 ms) as postgres.log, and timestamps on its own lines.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const directory = process.env.BENCH_DIAGNOSTICS;
if (directory !== undefined && directory !== '') {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `server-${process.pid}.log`);
  const write = (line: string) => appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
  // V8's kinds: 1 scavenge (young generation), 2 minor mark-compact, 4 mark-compact, 8 incremental marking, 16 weak callbacks.
  const pauses = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail?: { kind?: number } }>) {
      pauses.count += 1;
      pauses.totalMs += entry.duration;
      pauses.maxMs = Math.max(pauses.maxMs, entry.duration);
      if (entry.duration > 8) write(`gc pause ${entry.duration.toFixed(1)} ms, kind ${entry.detail?.kind ?? '?'}`);
    }
  }).observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  setInterval(() => {
    write(
      `loop delay max ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; ` +
        `gc ${pauses.count} pauses, ${pauses.totalMs.toFixed(0)} ms, longest ${pauses.maxMs.toFixed(1)} ms`,
    );
    delay.reset();
    Object.assign(pauses, { count: 0, totalMs: 0, maxMs: 0 });
  }, 1000).unref();
}
