// Events: what a store is told. Events written in the transaction of their change, the
// endpoints a store subscribes, and the signed deliveries with their retries.
export { bareHostname, endpointUrlProblems, isPublicAddress } from './endpoint-urls.js';
export {
  type AttemptOutcome,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  deliveryLagSeconds,
  type DeliveryRecord,
  endpointsWithDueDeliveries,
  type EventDeliverySettings,
  listDeliveries,
  recordAttempt,
  resendEvent,
  signedHeaders,
  takeDueDelivery,
} from './event-delivery.js';
export {
  emitEvent,
  EVENT_RETENTION_DAYS,
  eventInsertSql,
  eventParameters,
  getEvent,
  listEvents,
  type NewEvent,
  newEvent,
  sweepExpiredEvents,
} from './events.js';
export {
  createEndpoint,
  deleteEndpoint,
  type EndpointRecord,
  getEndpoint,
  listEndpoints,
  MAX_ENDPOINTS_PER_STORE,
  rotateEndpointSecret,
  updateEndpoint,
} from './webhook-endpoints.js';
