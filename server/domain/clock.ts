// Time is injected so that expiry rules (quotes live 24 hours) can be tested without waiting.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
