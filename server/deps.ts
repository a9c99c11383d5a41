// What the app needs from the outside world; main.ts and the tests each provide one.
import type { Logger } from 'pino';
import type { Database } from './db/client.js';
import type { Clock } from './domain/clock.js';
import type { VerificationSettings } from './domain/address-verification.js';
import type { ShipmentTracking } from './domain/shipments.js';

export interface AppDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  tracking: ShipmentTracking;
  /** The address verifier in use and its deadline. */
  addresses: VerificationSettings;
  /** EasyPost's webhook secret; without it the EasyPost webhook endpoint answers 404. */
  easyPostWebhookSecret?: string;
}
