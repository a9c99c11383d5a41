// The console's reads of the store and its claim decisions: thin handlers over the same domain
// functions as the API and the CLI.
import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { consoleBillingContract, consoleClaimsContract, consoleDevelopersContract, consoleOrdersContract, consoleOverviewContract, consoleShipmentsContract, CONSOLE_PAGE_LIMIT, type ConsoleClaimDetail, consoleClaimRulesContract, REQUEST_LOG_PAGE_LIMIT } from '../../../contract/console/index.js';
import { billingStatement, monthLedgerEntries, storeOverview, toBillingStatementResponse } from '../../domain/billing/index.js';
import { carrierName, CLAIM_TRANSITIONS, claimHistory, type ClaimRecord, decideClaim, dryRunClaimRules, getClaim, getClaimRules, listStoreClaims, putClaimRules, readClaimPhoto, toClaimResponse, toClaimRulesResponse, toDryRunResponse } from '../../domain/claims/index.js';

import { orderContact, orderHistory, redactOrder, searchOrders, toOrderResponse, type OrderContact } from '../../domain/orders/index.js';
import { CARRIER_SLUGS, getShipment, listShipments, normalizeCourierId, shipmentOrder, type ShipmentRecord, toShipmentResponse, updateShipment } from '../../domain/shipments/index.js';
import { roleAllows, type Scope } from '../../domain/access/index.js';
import { policyOf } from '../../../contract/policy.js';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, resendEvent, rotateEndpointSecret, sendTestEvent, updateEndpoint } from '../../domain/events/index.js';
import { sampleEvent } from '../../domain/sandbox/index.js';

import { listRequestLog } from '../../domain/access/index.js';
import { DEFAULT_PAGE_LIMIT } from '../../../contract/merchant-events.js';
import { toWebhookDeliveryResponse, toWebhookEndpointResponse } from '../../wire/merchant-events.js';

import { AppError } from '../../domain/kernel/index.js';

import type { AppDeps } from '../../deps.js';
import type { Database } from '../../db/client.js';
import { consoleOf } from '../../http/console-session.js';
import { claimDecisionOf } from '../../wire/claim-decision.js';
import { listConnectedPlatforms } from '../../domain/platforms/index.js';




import type { ConsoleOrderContact, ConsoleOrderDetail, ConsoleShipmentDetail } from '../../../contract/console/index.js';

const s = initServer();

const currentMonth = (now: Date) => now.toISOString().slice(0, 7);

type ConsoleRequest = ReturnType<typeof consoleOf>;

async function claimDetail(db: Database, session: ConsoleRequest, claim: ClaimRecord): Promise<z.input<typeof ConsoleClaimDetail>> {
  const { scope } = session;
  const history = await claimHistory(db, scope, claim);
  return {
    contact: await contactFor(db, session, claim.sourceOrderId),
    claim: toClaimResponse(claim),
    history: history.map((change) => ({
      from_status: change.fromStatus,
      to_status: change.toStatus,
      note: change.note,
      created_at: change.createdAt.toISOString(),
      by: change.by === null ? null : { kind: change.by.kind, label: change.by.label },
    })),
    next_statuses: [...CLAIM_TRANSITIONS[claim.status]],
  };
}

/** The shopper's contact goes to the roles that may decide claims, and to no one once erased. */
async function contactFor(db: Database, session: ConsoleRequest, sourceOrderId: string): Promise<z.input<typeof ConsoleOrderContact> | null> {
  const deciders = policyOf(consoleClaimsContract.setStatus.metadata)?.role ?? 'owner';
  if (!roleAllows(session.session.user.role, deciders)) return null;
  const contact: OrderContact | null = await orderContact(db, session.scope, sourceOrderId);
  return contact === null ? null : { name: contact.name, email: contact.email, phone: contact.phone, shipping_address: contact.shippingAddress };
}

async function orderDetail(db: Database, session: ConsoleRequest, sourceOrderId: string, now: Date): Promise<z.input<typeof ConsoleOrderDetail>> {
  const history = await orderHistory(db, session.scope, sourceOrderId, now);
  return {
    order: toOrderResponse(history.order),
    order_number: history.order.orderNumber,
    ledger: history.ledger.map((entry) => ({
      id: entry.id,
      reason: entry.reason,
      amount_cents: entry.amountCents,
      effective_at: entry.effectiveAt.toISOString(),
      created_at: entry.createdAt.toISOString(),
      refund_id: entry.refundId,
    })),
    shipments: history.shipments.map(toShipmentResponse),
    claims: history.claims.map(toClaimResponse),
    refunds: history.refunds.map((refund) => ({
      refund_id: refund.refundId,
      amount_cents: refund.amountCents,
      protection_refunded_cents: refund.protectionRefundedCents,
      reversed_cents: refund.reversedCents,
      note: refund.note,
      refunded_at: refund.refundedAt?.toISOString() ?? null,
      received_at: refund.receivedAt.toISOString(),
    })),
    personal_data: history.order.hasPii ? 'kept' : 'erased',
    contact: await contactFor(db, session, history.order.sourceOrderId),
  };
}

async function shipmentDetail(db: Database, scope: Scope, shipment: ShipmentRecord): Promise<z.input<typeof ConsoleShipmentDetail>> {
  const order = await shipmentOrder(db, scope, shipment.id);
  return { shipment: toShipmentResponse(shipment), order: { source_order_id: order.sourceOrderId, source_order_number: order.sourceOrderNumber, order_number: order.orderNumber } };
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

export function consoleStoreRouters({ db, clock, tracking, photos, events }: AppDeps) {
  return {
    overview: s.router(consoleOverviewContract, {
      get: async ({ query, req }) => {
        const overview = await storeOverview(db, consoleOf(req).scope, query.month ?? currentMonth(clock.now()), clock.now());
        return {
          status: 200,
          body: {
            month: overview.month,
            statement: toBillingStatementResponse(overview.statement),
            orders: { count: overview.orders.count, protected: overview.orders.protected, attach_rate: overview.orders.attachRate },
            open_claims: overview.openClaims,
            daily_net_cents: overview.dailyNetCents.map((day) => ({ day: day.day, net_cents: day.netCents })),
          },
        };
      },
    }),
    orders: s.router(consoleOrdersContract, {
      search: async ({ query, req }) => {
        const page = await searchOrders(db, consoleOf(req).scope, query, CONSOLE_PAGE_LIMIT);
        return {
          status: 200,
          body: {
            data: page.orders.map((order) => ({
              id: order.id,
              source_order_id: order.sourceOrderId,
              source_order_number: order.sourceOrderNumber,
              order_number: order.orderNumber,
              customer_name: order.customerName,
              status: order.status,
              insurance_selected: order.insuranceSelected,
              premium_cents: order.premiumCents,
              order_total_cents: order.orderTotalCents,
              has_pii: order.hasPii,
              placed_on: order.placedOn.toISOString(),
              created_on: order.createdOn.toISOString(),
              cancelled_on: order.cancelledOn?.toISOString() ?? null,
            })),
            next_cursor: page.nextCursor,
          },
        };
      },
      get: async ({ params, req }) => ({ status: 200, body: await orderDetail(db, consoleOf(req), params.source_order_id, clock.now()) }),
      redact: async ({ params, req }) => {
        const session = consoleOf(req);
        await redactOrder(db, session.scope, params.source_order_id, clock.now());
        return { status: 200, body: await orderDetail(db, session, params.source_order_id, clock.now()) };
      },
    }),
    claims: s.router(consoleClaimsContract, {
      list: async ({ query, req }) => {
        const { claims, nextCursor } = await listStoreClaims(db, consoleOf(req).scope, query, CONSOLE_PAGE_LIMIT, clock.now());
        return { status: 200, body: { data: claims.map(toClaimResponse), next_cursor: nextCursor } };
      },
      get: async ({ params, req }) => {
        const session = consoleOf(req);
        return { status: 200, body: await claimDetail(db, session, await getClaim(db, session.scope, params.id, clock.now())) };
      },
      photo: async ({ params, req, res }) => {
        const jpeg = await readClaimPhoto(db, photos, params.photo_id, { storeId: consoleOf(req).scope.store.id, claimId: params.id });
        res.setHeader('Cache-Control', 'private, no-store');
        return { status: 200, body: jpeg };
      },
      setStatus: async ({ params, body, req }) => {
        const session = consoleOf(req);
        const claim = await decideClaim(db, session.scope, params.id, claimDecisionOf(body), clock);
        return { status: 200, body: await claimDetail(db, session, claim) };
      },
    }),
    shipments: s.router(consoleShipmentsContract, {
      list: async ({ query, req }) => {
        const { shipments, nextCursor, counts } = await listShipments(
          db,
          consoleOf(req).scope,
          {
            ...(query.status === undefined ? {} : { status: query.status }),
            ...(query.carrier === undefined ? {} : { carrier: query.carrier }),
            ...(query.silent_days === undefined ? {} : { silentDays: Number(query.silent_days) }),
            ...(query.carrier_unknown === undefined ? {} : { carrierUnknown: query.carrier_unknown === 'true' }),
            ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
          },
          CONSOLE_PAGE_LIMIT,
          clock.now(),
        );
        return {
          status: 200,
          body: {
            data: shipments.map((shipment) => ({
              tracking_number: shipment.trackingNumber,
              courier: shipment.courier,
              courier_name: carrierName(shipment.courier),
              delivery_status: shipment.deliveryStatus,
              source_order_id: shipment.sourceOrderId,
              order_number: shipment.orderNumber,
              created_on: shipment.createdOn.toISOString(),
              last_scan_at: shipment.lastScanAt?.toISOString() ?? null,
              days_without_scan: shipment.daysWithoutScan,
            })),
            next_cursor: nextCursor,
            counts: {
              all: counts.all,
              by_status: counts.byStatus,
              by_carrier: counts.byCarrier.map((carrier) => ({ courier: carrier.courier, courier_name: carrierName(carrier.courier), count: carrier.count })),
              carrier_unknown: counts.carrierUnknown,
              silent: counts.silent,
              silent_days: counts.silentDays,
            },
          },
        };
      },
      get: async ({ params, req }) => {
        const scope = consoleOf(req).scope;
        return { status: 200, body: await shipmentDetail(db, scope, await getShipment(db, scope, params.tracking_number)) };
      },
      setCarrier: async ({ params, body, req }) => {
        // The API records a carrier it does not know as a message; a person choosing one gets told.
        if (normalizeCourierId(body.courier_id) === null) {
          throw new AppError('invalid_request', 'Unknown carrier.', [{ field: 'courier_id', message: `must be a carrier slug or alias, e.g. ${CARRIER_SLUGS.slice(0, 3).join(', ')}` }]);
        }
        const scope = consoleOf(req).scope;
        const shipment = await updateShipment(db, tracking, scope, params.tracking_number, { courier_id: body.courier_id }, clock.now());
        return { status: 200, body: await shipmentDetail(db, scope, shipment) };
      },
    }),
    developers: s.router(consoleDevelopersContract, {
      endpoints: async ({ req }) => ({ status: 200, body: { data: (await listEndpoints(db, consoleOf(req).scope)).map(toWebhookEndpointResponse) } }),
      createEndpoint: async ({ body, req }) => {
        const endpoint = await createEndpoint(db, consoleOf(req).scope, body, clock.now(), events);
        return { status: 201, body: { ...toWebhookEndpointResponse(endpoint), secret: endpoint.secret } };
      },
      updateEndpoint: async ({ params, body, req }) => ({
        status: 200,
        body: toWebhookEndpointResponse(await updateEndpoint(db, consoleOf(req).scope, params.id, body, clock.now(), events)),
      }),
      deleteEndpoint: async ({ params, req }) => {
        await deleteEndpoint(db, consoleOf(req).scope, params.id, clock.now());
        return { status: 200, body: { id: params.id, deleted: true as const } };
      },
      rotateSecret: async ({ params, req }) => {
        const endpoint = await rotateEndpointSecret(db, consoleOf(req).scope, params.id, clock.now());
        return {
          status: 200,
          body: { ...toWebhookEndpointResponse(endpoint), secret: endpoint.secret, previous_secret_expires_on: endpoint.previousSecretExpiresAt.toISOString() },
        };
      },
      sendTestEvent: async ({ params, body, req }) => {
        const { scope } = consoleOf(req);
        const now = clock.now();
        const delivery = await sendTestEvent(db, scope, params.id, body.type, (type) => sampleEvent(db, tracking, scope, type, now), now);
        return { status: 202, body: toWebhookDeliveryResponse(delivery) };
      },
      resendEvent: async ({ params, body, req }) => {
        const [delivery] = await resendEvent(db, consoleOf(req).scope, body.event_id, params.id, clock.now());
        // Named with an endpoint, the resend queues exactly one delivery or refuses.
        if (delivery === undefined) throw new AppError('not_found', `No delivery was queued for endpoint "${params.id}".`);
        return { status: 202, body: toWebhookDeliveryResponse(delivery) };
      },
      deliveries: async ({ params, query, req }) => {
        const page = await listDeliveries(db, consoleOf(req).scope, params.id, {
          limit: DEFAULT_PAGE_LIMIT,
          ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
        });
        return { status: 200, body: { data: page.data.map(toWebhookDeliveryResponse), has_more: page.hasMore } };
      },
      requestLog: async ({ query, req }) => {
        const page = await listRequestLog(db, consoleOf(req).scope, clock.now(), { limit: REQUEST_LOG_PAGE_LIMIT, ...(query.cursor === undefined ? {} : { before: BigInt(query.cursor) }) });
        const last = page.lines.at(-1);
        return {
          status: 200,
          body: {
            data: page.lines.map((line) => ({ at: line.at.toISOString(), mode: line.mode, method: line.method, path: line.path, status: line.status, request_id: line.requestId, duration_ms: line.durationMs })),
            next_cursor: page.hasMore && last !== undefined ? last.id.toString() : null,
          },
        };
      },
      platforms: async ({ req }) => {
        const links = await listConnectedPlatforms(db, consoleOf(req).scope);
        return {
          status: 200,
          body: { data: links.map((link) => ({ slug: link.slug, connected_at: link.connectedAt.toISOString(), webhook_path: `/api/webhooks/${link.slug}` })) },
        };
      },
    }),
    claimRules: s.router(consoleClaimRulesContract, {
      get: async ({ req }) => ({ status: 200, body: toClaimRulesResponse(await getClaimRules(db, consoleOf(req).scope)) }),
      put: async ({ body, req }) => ({ status: 200, body: toClaimRulesResponse(await putClaimRules(db, consoleOf(req).scope, body.rules, clock.now())) }),
      dryRun: async ({ body, req }) => ({
        status: 200,
        body: toDryRunResponse(await dryRunClaimRules(db, consoleOf(req).scope, body.rules, body.since === undefined ? undefined : new Date(body.since), clock.now())),
      }),
    }),
    billing: s.router(consoleBillingContract, {
      statement: async ({ params, req }) => ({ status: 200, body: toBillingStatementResponse(await billingStatement(db, consoleOf(req).scope, params.month)) }),
      csv: async ({ params, req, res }) => {
        const entries = await monthLedgerEntries(db, consoleOf(req).scope, params.month);
        const lines = ['effective_at,source_order_id,reason,amount_cents', ...entries.map((entry) => [entry.effectiveAt.toISOString(), csvField(entry.sourceOrderId), entry.reason, String(entry.amountCents)].join(','))];
        res.setHeader('Content-Disposition', `attachment; filename="statement-${params.month}.csv"`);
        return { status: 200, body: `${lines.join('\r\n')}\r\n` };
      },
    }),
  };
}
