// Every allocation the server makes during a bench run, sampled, including the objects the garbage
// collector has already freed: the churn that makes it scavenge, which `--heap-prof` does not show
// (it keeps only what is still alive when the profile is written).
//
//   BENCH_ALLOCATION_PROFILE=bench/results/prof BENCH_ONLY=order_create npm run bench
//   node --import tsx bench/profile-summary.ts bench/results/prof/<file>.heapprofile
//
// bench/targets.ts loads this module into the server child (`--import`) when the variable names a
// directory. V8's sampling heap profiler records one allocation per 32 KiB allocated on average,
// with its stack; the two include flags keep samples whose objects a minor or major GC collected.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const directory = process.env.BENCH_ALLOCATION_PROFILE;
if (directory !== undefined && directory !== '') {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 32 * 1024,
    includeObjectsCollectedByMajorGC: true,
    // BENCH_ALLOCATION_SURVIVORS=1 drops what the young generation freed: what is left was promoted
    // to the old space, which is what makes the major collections.
    includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOCATION_SURVIVORS !== '1',
  });
  // The target exits with process.exit once the bench stops it: the same-thread session answers
  // synchronously, so the profile is written inside the exit handler.
  process.on('exit', () => {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) {
        process.stderr.write(`allocation profile not written: ${error.message}\n`);
        return;
      }
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, `allocations-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
