// The worker thread's entry: Node runs a worker's file as it is, so this plain module loads the
// TypeScript senders through tsx (test/support/body-senders-worker.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('./body-senders-worker.ts', import.meta.url);
