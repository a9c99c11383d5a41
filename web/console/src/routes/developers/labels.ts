// How the developers pages word the API's codes. The API's fields are open strings in places (a
// delivery's error), so every lookup falls back to the code itself.
import { ALL_EVENTS, EVENT_TYPES } from '../../../../../contract/merchant-events.js';
import { SECRET_ROTATION_OVERLAP_HOURS } from '../../../../../contract/webhook-endpoints.js';
import type { Delivery, Endpoint } from './queries';

type Attempt = Delivery['attempts'][number];
export type EventType = (typeof EVENT_TYPES)[number];

/** Why an attempt got no 2xx (the sender's error codes), in words. */
const DELIVERY_ERRORS: Record<string, string> = {
  invalid_url: 'Invalid URL',
  dns_failed: 'Host name not found',
  refused_address: 'Address not allowed',
  connection_failed: 'Connection failed',
  timeout: 'Timed out',
  redirect_not_followed: 'Redirect not followed',
  // Any other non-2xx answer: its code says the rest ("500 · Failed").
  http_status: 'Failed',
};

/** What an attempt got back: its status code when an answer came, and why it failed when it did. */
export function attemptResult(attempt: Attempt): string {
  if (attempt.succeeded) return attempt.status_code === null ? 'Succeeded' : `${attempt.status_code} · Succeeded`;
  const reason = attempt.error === null ? 'Failed' : (DELIVERY_ERRORS[attempt.error] ?? attempt.error);
  return attempt.status_code === null ? reason : `${attempt.status_code} · ${reason}`;
}

/** The same, shorter, beside a status badge that already says whether it succeeded: "200", "500 · Failed", "Timed out". */
export const attemptBrief = (attempt: Attempt): string =>
  attempt.succeeded && attempt.status_code !== null ? String(attempt.status_code) : attemptResult(attempt);

export const DELIVERY_STATUS_LABEL: Record<Delivery['status'], string> = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' };

/** The status badge's class (colours repeat the word, never replace it). */
export const DELIVERY_STATUS_CLASS: Record<Delivery['status'], string> = { pending: 'dev-pending', succeeded: 'active', failed: 'revoked' };

/** Whether the endpoint receives every event type, including ones added later. */
export const receivesAll = (endpoint: Pick<Endpoint, 'events'>): boolean => endpoint.events.includes(ALL_EVENTS);

/** The event types an endpoint receives, in the contract's order: every one for "*". */
export const typesReceived = (endpoint: Pick<Endpoint, 'events'>): EventType[] =>
  EVENT_TYPES.filter((type) => receivesAll(endpoint) || endpoint.events.includes(type));

export function endpointStatus(endpoint: Endpoint): string {
  if (endpoint.status === 'enabled') return 'Enabled';
  if (endpoint.disabled_reason === 'failing') return 'Disabled: failing';
  return 'Disabled';
}

export const disabledNote = (endpoint: Endpoint): string | null =>
  endpoint.status === 'enabled'
    ? null
    : endpoint.disabled_reason === 'failing'
      ? 'A delivery failed at every attempt until its retries were used up, so it was disabled. Fix the receiver, enable it, then resend what it missed from its deliveries.'
      : 'Disabled: nothing is sent to it. Enable it to send the deliveries still waiting; events that happened meanwhile are not sent.';

/** What a rotation promises, in one sentence (the contract's overlap). */
export const ROTATION_OVERLAP = `For ${SECRET_ROTATION_OVERLAP_HOURS} hours the current secret keeps signing every delivery beside the new one, so your receiver can switch without missing an event.`;

/** What each event type tells, in a few words (the contract describes each in full). */
export const EVENT_TYPE_HINT: Record<EventType, string> = {
  'order.created': 'an order is registered',
  'order.repriced': "an order's premium changes",
  'order.cancelled': 'an order is cancelled',
  'premium.reversed': 'a refund gives premium back',
  'shipment.created': 'a tracking number is registered',
  'shipment.delivery_status_changed': "a shipment's delivery status changes",
  'shipment.cancelled': 'a shipment is cancelled',
  'claim.created': 'a claim is filed',
  'claim.status_changed': "a claim's status changes",
};
