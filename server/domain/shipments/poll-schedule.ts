// When a shipment is polled next: often while it is new, less as it ages, never after the polling
// window (docs/tracking.md). Most parcels are delivered within days, and a parcel silent for a week
// changes rarely, so polling it hourly would spend most of the polls on what does not move; the
// polls of a million active shipments then grow with the young ones, not with every one kept.
import { POLLING_GIVES_UP_AFTER_MS } from './shipment-record.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * By age since registration, the multiple of the base interval (TRACKING_POLL_INTERVAL_SECONDS,
 * an hour by default) between two polls: 1 for the first 3 days, 3 to day 7, 6 to day 14, 12 after,
 * until the polling window ends (60 days).
 */
export const POLL_BACKOFF: ReadonlyArray<{ untilAgeMs: number; multiple: number }> = [
  { untilAgeMs: 3 * DAY_MS, multiple: 1 },
  { untilAgeMs: 7 * DAY_MS, multiple: 3 },
  { untilAgeMs: 14 * DAY_MS, multiple: 6 },
  { untilAgeMs: POLLING_GIVES_UP_AFTER_MS, multiple: 12 },
];

/** The next poll of a shipment registered at `registeredAt`, polled at `now`. */
export function nextPollAt(registeredAt: Date, now: Date, baseIntervalSeconds: number): Date {
  const age = now.getTime() - registeredAt.getTime();
  const step = POLL_BACKOFF.find((candidate) => age < candidate.untilAgeMs) ?? POLL_BACKOFF[POLL_BACKOFF.length - 1];
  return new Date(now.getTime() + baseIntervalSeconds * 1000 * (step?.multiple ?? 1));
}

/** Polls one shipment receives over the whole window if never delivered: the most any shipment costs. */
export function pollsOverWindow(baseIntervalSeconds: number): number {
  let from = 0;
  let polls = 0;
  for (const step of POLL_BACKOFF) {
    polls += (step.untilAgeMs - from) / (baseIntervalSeconds * 1000 * step.multiple);
    from = step.untilAgeMs;
  }
  return Math.ceil(polls);
}
