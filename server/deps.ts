// What the app needs from the outside world; main.ts and the tests each provide one.
import type { Logger } from 'pino';
import type { Database } from './db/client.js';
import type { Clock } from './domain/clock.js';

export interface AppDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
}
