// How the developers pages word the API's codes. The API's fields are open strings in places (a
// delivery's error), so every lookup falls back to the code itself.
import { ALL_EVENTS } from '../../../../../contract/merchant-events.js';
import type { Delivery, Endpoint } from './queries';

type Attempt = Delivery['attempts'][number];

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

/** The event types an endpoint receives, as a list (or all of them). */
export const receivesAll = (endpoint: Endpoint): boolean => endpoint.events.includes(ALL_EVENTS);

export function endpointStatus(endpoint: Endpoint): string {
  if (endpoint.status === 'enabled') return 'Enabled';
  if (endpoint.disabled_reason === 'failing') return 'Disabled: failing';
  return 'Disabled';
}

export const disabledNote = (endpoint: Endpoint): string | null =>
  endpoint.status === 'enabled'
    ? null
    : endpoint.disabled_reason === 'failing'
      ? 'Every attempt of a delivery failed for about three days. Re-enable it with PATCH /v1/webhook_endpoints/{id} and "enabled": true.'
      : 'Disabled by an update; re-enable it with PATCH /v1/webhook_endpoints/{id} and "enabled": true.';
