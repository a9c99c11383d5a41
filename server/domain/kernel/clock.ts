// Time is injected so that expiry rules (quotes live 24 hours) can be tested without waiting.
//
// A change to an object (an order, a shipment, a claim) is dated once it holds the lock that orders
// changes to that object, never when its request arrived: a request that waited for the lock behind
// another is applied after it, and its events, ledger entries and history must say so
// (docs/events.md, "Order"). appliedAt is that date.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock stopped at one instant: for a command run as of a given time (the CLI, the tests). */
export const clockAt = (instant: Date): Clock => ({ now: () => new Date(instant.getTime()) });

/**
 * When a change is applied: the clock, read once the object's lock is held, and strictly after the
 * object's previous change. A millisecond later than that change when the clock has not moved on
 * (timestamps keep milliseconds) or is behind it (another instance's clock), so that the created_at
 * of one object's events never ties and never runs backwards.
 */
export function appliedAt(clock: Clock, previousChange: Date): Date {
  const now = clock.now();
  return now.getTime() > previousChange.getTime() ? now : new Date(previousChange.getTime() + 1);
}

/** A day in milliseconds: every day the domain counts is a UTC day of this length. */
export const DAY_MS = 86_400_000;
