// Platforms: commerce platforms connected to stores, and their signed messages (an order placed,
// a fulfilment, WooCommerce's own order webhooks). Test mode is decided by the sandbox.
export { fulfilledParcels, type FulfillmentAcknowledgement, type FulfillmentCreated, ingestFulfillment } from './fulfillments.js';
export {
  connectedStore,
  connectStore,
  createPlatform,
  findPlatform,
  listConnectedPlatforms,
  MIN_SECRET_LENGTH,
  type PlatformRecord,
} from './platforms.js';
export {
  ingestPushedOrder,
  lockMessageOrderOn,
  orderNotYetIngested,
  type OrderPlaced,
  type PushAcknowledgement,
  pushedOrderMode,
  readPushedOrder,
} from './pushed-orders.js';
export {
  applyWooCommerceEvent,
  matchingSigner,
  readableWholeOrder,
  type WooCommerceOrderEvent,
  type WooCommerceOutcome,
  type WooCommerceSigner,
  wooCommerceSigners,
  wooCommerceStatusAction,
} from './woocommerce-orders.js';
