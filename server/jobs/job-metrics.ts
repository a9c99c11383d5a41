// What the job workers count, declared here so that jobs/ needs nothing from http/: the service's
// metrics (http/metrics.ts) provide these, and a test may pass any object that does.
import type { AttemptOutcome } from '../domain/events/index.js';

export interface JobMetrics {
  /** One delivery attempt of an event to an endpoint, by its outcome. */
  eventDeliveryAttempted(outcome: AttemptOutcome): void;
  /** Orders whose personal data was erased, by what asked for it. */
  personalDataErased(cause: 'request' | 'retention', orders: number): void;
}
