// A worker thread of body senders, so that their writing does not delay the measuring thread's
// event loop: each sends its body again and again, a send every `everyMs` at most, while running.
// Messages: 'pause' and 'run' (each answered with the count sent so far, once the senders are idle
// or under way), and
// 'stop', answered with how many went and the answers' statuses (a connection closed under the
// writing counts as refused, 401).
import { parentPort, workerData } from 'node:worker_threads';
import { sendBody } from './body-sender.js';

interface Senders {
  port: number;
  bodyBytes: number;
  everyMs: number;
  senders: Array<{ path: string; headers: Record<string, string>; fill?: string }>;
}

const { port, bodyBytes, everyMs, senders } = workerData as Senders;
let stop = false;
let paused = true;
let sent = 0;
let inFlight = 0;
const statuses = new Set<number>();
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
parentPort?.on('message', (message: 'pause' | 'run' | 'stop') => {
  if (message === 'stop') stop = true;
  paused = message === 'pause';
  if (message === 'stop') return;
  // Answered once the senders are idle (pause) or the first sends are out (run).
  void (async () => {
    while (message === 'pause' ? inFlight > 0 : inFlight === 0) await tick();
    parentPort?.postMessage({ sent });
  })();
});

async function loop(path: string, headers: Record<string, string>, fill: string | undefined): Promise<void> {
  while (!stop) {
    if (paused) {
      await tick();
      continue;
    }
    inFlight += 1;
    const started = Date.now();
    const answer = await sendBody({ port, path, headers, bodyBytes, ...(fill === undefined ? {} : { fill }) });
    statuses.add(answer.cut === undefined ? answer.status : 401);
    sent += 1;
    inFlight -= 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - started))));
  }
}

await Promise.all(senders.map(({ path, headers, fill }) => loop(path, headers, fill)));
parentPort?.postMessage({ sent, statuses: [...statuses] });
