// The merchant SDK. Requests and responses are typed from the API's own OpenAPI document
// (types.ts), routes come from its contract (routes.ts), and it needs nothing at run time but
// fetch and Web Crypto: no dependencies, any runtime with those (Node 20+, Deno, Bun, edge workers).
//
//   const client = new Client({ apiKey: process.env.ORDER_PROTECTION_KEY!, baseUrl: 'https://api.example.com' });
//   const order = await client.orders.create({ source_order_id: '1001', ... });
//
// Every method resolves with the success body (with a non-enumerable lastResponse) or throws an
// OrderProtectionError subclass; branch on the class and on `code`, never on the message.
//
// Events the service POSTs to the store's endpoints are checked and typed on receipt:
//
//   const event = await client.webhooks.constructEvent(rawBody, req.headers, endpointSecret);
export {
  Client,
  Quotes,
  Orders,
  Shipments,
  Addresses,
  Claims,
  Customers,
  Billing,
  WebhookEndpoints,
  Events,
  type ClientOptions,
  type KeyMode,
} from './client.js';
export type {
  ClientEvents,
  LastResponse,
  RequestEvent,
  RequestOptions,
  ResponseEvent,
  TransportOptions,
  WithLastResponse,
  DownloadedFile,
} from './transport.js';
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
  ErrorCode,
  type FieldIssue,
} from './errors.js';
export type { RetryEvent } from './retry.js';
export { toAmount, toAmountString, toCents } from './money.js';
export { SDK_VERSION } from './routes.js';
export {
  sendPlatformMessage,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type PlatformMessageOptions,
  type WebhookSignatureCheck,
} from './webhooks.js';
export {
  constructEvent,
  generateTestHeaders,
  EventSignatureError,
  Webhooks,
  type ConstructEventOptions,
  type EventHeaders,
  type EventSignatureFailure,
  type EventType,
  type TestHeadersOptions,
} from './events.js';
export { EVENT_ID_HEADER, EVENT_SIGNATURE_HEADER, EVENT_TIMESTAMP_HEADER, EVENT_TOLERANCE_SECONDS } from './routes.js';
export type * from './types.js';
