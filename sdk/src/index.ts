// The merchant SDK, built from the same contract as the server: every route, body and response is
// typed from contract/, so the SDK cannot drift from the API.
//
//   const client = new Client({ apiKey: process.env.ORDER_PROTECTION_KEY!, baseUrl: 'https://api.example.com' });
//   const order = await client.orders.create({ source_order_id: '1001', ... });
//
// Every method resolves with the success body or throws an OrderProtectionError subclass; branch on
// the class and on `code`, never on the message.
export { Client, Quotes, Orders, Shipments, Addresses, Claims, Billing, type ClientOptions, type KeyMode } from './client.js';
export type { RequestOptions } from './transport.js';
export {
  OrderProtectionError,
  AuthenticationError,
  PermissionError,
  InvalidRequestError,
  NotFoundError,
  ConflictError,
  UnprocessableError,
  RateLimitError,
  APIError,
  ConnectionError,
  TimeoutError,
  type ErrorCode,
  type FieldError,
} from './errors.js';
export type { RetryEvent } from './retry.js';
export {
  sendPlatformMessage,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type PlatformMessageOptions,
  type WebhookSignatureCheck,
} from './webhooks.js';
export type * from './types.js';
/** The raw REST types generated from openapi.json, for openapi-fetch and other OpenAPI tools. */
export type { paths, components, operations } from './rest-types.js';
export { contract } from '../../contract/index.js';
export type { Contract } from '../../contract/index.js';
