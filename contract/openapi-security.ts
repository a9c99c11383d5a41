// How the OpenAPI document (contract/openapi.ts) describes authentication: the security schemes of
// the routes (a key, or the signature of each sender of callbacks) and of the events the service
// sends, and the event callback, the signed request the service makes to a webhook endpoint.
import { EVENT_ID_HEADER, EVENT_SIGNATURE_HEADER, EVENT_TIMESTAMP_HEADER, EVENT_TOLERANCE_SECONDS } from './merchant-events.js';
import { ENDPOINT_SECRET_PREFIX } from './webhook-endpoints.js';

/** Every way a request proves who sent it; an operation names the ones it takes (its route's policy). */
export const SECURITY_SCHEMES = {
  tokenHeader: { type: 'apiKey', in: 'header', name: 'token', description: 'Secret key: ak_live_... or ak_test_...' },
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'The same secret key as a Bearer token.' },
  easyPostSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Hmac-Signature',
    description: '`hmac-sha256-hex=<hex HMAC-SHA256 of the raw body with the EasyPost webhook secret>`.',
  },
  wooCommerceSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-WC-Webhook-Signature',
    description: 'Base64 HMAC-SHA256 of the raw body, keyed with the hex SHA-256 of "<store id>-<API key>" (or a declared secret).',
  },
  eventSignature: {
    type: 'apiKey',
    in: 'header',
    name: EVENT_SIGNATURE_HEADER,
    description:
      'On events the service sends: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` with the ' +
      "endpoint's secret (Standard Webhooks); the receiver checks it.",
  },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Webhook-Signature',
    description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the platform secret>`; 300 s window.',
  },
} as const;

/**
 * How events reach an endpoint, as a callback of the operation that creates it: the request the
 * service makes to the endpoint's url, its headers and body, and the answers it expects.
 */
export const EVENT_CALLBACK = {
  event: {
    '{$request.body#/url}': {
      post: {
        summary: 'An event, delivered',
        description:
          'The service POSTs each event the endpoint subscribes to. Answer 2xx within 10 seconds to acknowledge it; anything ' +
          'else (another status, a redirect, a timeout) is retried with exponential backoff for about three days. Verify the ' +
          'signature on the raw body before parsing it, and drop an event id already seen (delivery is at least once).',
        parameters: [
          { name: EVENT_ID_HEADER, in: 'header', required: true, description: 'The event id; the same on every attempt and resend.', schema: { type: 'string' } },
          {
            name: EVENT_TIMESTAMP_HEADER,
            in: 'header',
            required: true,
            description: `Unix seconds when this attempt was signed; refuse one more than ${EVENT_TOLERANCE_SECONDS} s from your clock.`,
            schema: { type: 'string', pattern: '^[0-9]+$' },
          },
          {
            name: EVENT_SIGNATURE_HEADER,
            in: 'header',
            required: true,
            description:
              'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the base64-decoded ' +
              `part of the endpoint's ${ENDPOINT_SECRET_PREFIX}... secret; two of them for 24 hours after a rotation. One match is enough.`,
            schema: { type: 'string' },
          },
        ],
        // The component GET /v1/events/{id} answers with.
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/MerchantEvent' } } } },
        security: [{ eventSignature: [] }],
        responses: {
          '200': { description: 'Any 2xx acknowledges the event.' },
          '400': { description: 'Refuse an event whose signature or timestamp does not verify. Like any answer other than 2xx, it is retried.' },
          '500': { description: 'Anything else, or no answer within 10 seconds, is retried.' },
        },
      },
    },
  },
} as const;
