// The links of the OpenAPI document (contract/openapi.ts): which operation follows which, and what
// of the first's answer it reads, for readers of the document and for stateful test tools.

export interface Link {
  operationId: string;
  description: string;
  parameters?: Record<string, string>;
  /** Runtime expressions by body field: how stateful tools (Schemathesis) fill a follow-up body. */
  requestBody?: Record<string, string>;
}

const orderId = '$response.body#/source_order_id';
/**
 * How the integration's steps follow each other, by the operation whose success answer they read:
 * quote -> order (quote_id), order -> its reads, changes, shipments and claims (source_order_id),
 * shipment -> its reads, changes and claims (tracking_number), claim -> its read (id), and the same
 * for Route's v1 order routes and merchant list.
 */
export const LINKS: Record<string, Record<string, Link>> = {
  'quotes.create': {
    CreateOrderFromQuote: { operationId: 'orders.create', description: 'Register the order the shopper placed, with this quote.', requestBody: { quote_id: '$response.body#/id' } },
  },
  'orders.create': {
    ReadOrder: { operationId: 'orders.get', description: 'Read the order back.', parameters: { source_order_id: orderId } },
    UpdateOrder: { operationId: 'orders.updatePatch', description: 'Send what changed.', parameters: { source_order_id: orderId } },
    ReplaceOrder: { operationId: 'orders.update', description: 'Send the order again, changed.', parameters: { source_order_id: orderId } },
    CancelOrder: { operationId: 'orders.cancel', description: 'Cancel the order.', parameters: { source_order_id: orderId } },
    RedactOrder: { operationId: 'orders.redact', description: "Erase the shopper's personal data from the order.", parameters: { source_order_id: orderId } },
    CreateShipment: { operationId: 'shipments.create', description: 'Register a tracking number of the order.', requestBody: { source_order_id: orderId } },
    FileClaim: { operationId: 'claims.create', description: 'File a claim on the order.', requestBody: { source_order_id: orderId } },
    ListClaims: { operationId: 'claims.list', description: 'List the claims of the order.', parameters: { source_order_id: orderId } },
  },
  'shipments.create': {
    ReadShipment: { operationId: 'shipments.get', description: 'Read the shipment and its scans.', parameters: { tracking_number: '$response.body#/tracking_number' } },
    UpdateShipment: { operationId: 'shipments.updatePatch', description: 'Correct the carrier.', parameters: { tracking_number: '$response.body#/tracking_number' } },
    CancelShipment: { operationId: 'shipments.cancel', description: 'Cancel the shipment.', parameters: { tracking_number: '$response.body#/tracking_number' } },
    FileClaimOnShipment: { operationId: 'claims.create', description: 'File a claim about this shipment.', requestBody: { tracking_number: '$response.body#/tracking_number' } },
  },
  'routeCompatibility.createOrder': {
    ReadOrder: { operationId: 'routeCompatibility.getOrder', description: 'Read the order back (v1).', parameters: { source_order_id: orderId } },
    UpdateOrder: { operationId: 'routeCompatibility.updateOrder', description: 'Send what changed (v1).', parameters: { source_order_id: orderId } },
  },
  'routeCompatibility.merchants': {
    ReadMerchant: { operationId: 'routeCompatibility.merchant', description: 'Read the merchant back by its id.', parameters: { merchant_id: '$response.body#/0/id' } },
  },
  'webhookEndpoints.create': {
    ReadEndpoint: { operationId: 'webhookEndpoints.get', description: 'Read the endpoint and its status.', parameters: { id: '$response.body#/id' } },
    UpdateEndpoint: { operationId: 'webhookEndpoints.update', description: 'Change its url, events or enabled.', parameters: { id: '$response.body#/id' } },
    RotateSecret: { operationId: 'webhookEndpoints.rotateSecret', description: 'Rotate its signing secret.', parameters: { id: '$response.body#/id' } },
    ListDeliveries: { operationId: 'webhookEndpoints.deliveries', description: 'Read its delivery log.', parameters: { id: '$response.body#/id' } },
    DeleteEndpoint: { operationId: 'webhookEndpoints.delete', description: 'Delete it.', parameters: { id: '$response.body#/id' } },
  },
  'claims.create': {
    ReadClaim: { operationId: 'claims.get', description: 'Read the claim back.', parameters: { id: '$response.body#/id' } },
    DecideClaim: { operationId: 'claims.setStatus', description: 'Decide the claim: approve it with a resolution, deny it, or mark it paid.', parameters: { id: '$response.body#/id' } },
    FindClaimByReference: { operationId: 'claims.list', description: 'Find the claim by the reference the shopper quotes.', parameters: { reference: '$response.body#/reference' } },
  },
};
