// Events: what a store is told. Events written in the transaction of their change, the
// endpoints a store subscribes, and the signed deliveries with their retries.
export { bareHostname, endpointUrlProblems, isPublicAddress } from './endpoint-urls.js';
export { type AttemptOutcome, type AttemptResult, DEFAULT_RETRY_SCHEDULE_SECONDS, type DueDelivery, deliveryLagSeconds, endpointsWithDueDeliveries, type EventDeliverySettings, hasDueDelivery, deliveryEndpoint, type EndpointJob, type EndpointKey, recordAttempt, signedHeaders, takeDueDelivery } from './event-delivery.js';
export { type DeliveryRecord, listDeliveries } from './list-deliveries.js';
export { resendEvent } from './resend-event.js';
export { sendTestEvent } from './send-test-event.js';
export { emitEvent, eventInsertSql, eventParameters, type NewEvent, newEvent } from './emit-event.js';
export { EVENT_RETENTION_DAYS, EVENT_TABLES, sweepExpiredEvents } from './sweep-events.js';
export { getEvent, listEvents } from './list-events.js';
export { createEndpoint } from './create-endpoint.js';
export { deleteEndpoint } from './delete-endpoint.js';
export { type EndpointRecord, MAX_ENDPOINTS_PER_STORE } from './endpoint-record.js';
export { getEndpoint, listEndpoints } from './get-endpoint.js';
export { rotateEndpointSecret } from './rotate-endpoint-secret.js';
export { updateEndpoint } from './update-endpoint.js';
