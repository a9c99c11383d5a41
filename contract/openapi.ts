// Builds the OpenAPI document from the contract. `npm run openapi` writes it to openapi.json and
// the server serves the same document at GET /openapi.json. Its parts are in contract/openapi-*.ts:
// the headers, the links, the security schemes and event callback, and the post-processing.
import { generateOpenApi } from '@ts-rest/open-api';
import { isZodType, type AppRoute } from '@ts-rest/core';
import { contract } from './index.js';
import { HEADERS, IDEMPOTENCY_KEY_PARAMETER, responseHeaders } from './openapi-headers.js';
import { LINKS, type Link } from './openapi-links.js';
import { anyValueSchemas, nameTitledSchemas, nullableRules, type SchemaObject } from './openapi-post-process.js';
import { EVENT_CALLBACK, SECURITY_SCHEMES } from './openapi-security.js';
import { ROUTE_COMPATIBILITY_TAG } from './route-compatibility.js';
import { acceptsIdempotencyKey, policyOf, type RouteAuth } from './policy.js';
import { errorDescriptions, type ErrorStatus } from './errors.js';

interface ResponseLike {
  description?: string;
  headers?: Record<string, { $ref: string }>;
}

interface OperationLike {
  responses?: Record<string, ResponseLike>;
  parameters?: unknown[];
  requestBody?: { required?: boolean };
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

/** The router keys of the contract, as operation tags, each with what it is for. */
const TAGS = [
  { name: 'quotes', description: 'Step 1 of the integration: price protection for the current cart, at checkout.' },
  { name: 'orders', description: 'Step 2: register each protected order; this books the premium. Read, update and cancel it.' },
  { name: 'shipments', description: 'Step 3: register each tracking number as the order is fulfilled; read its carrier scans.' },
  { name: 'claims', description: 'File, follow and decide a claim on a protected order, with its evidence, resolution and payout; an open claim blocks cancelling.' },
  { name: 'claimRules', description: "The store's claim rules: an ordered list that decides claims on its own and records why; try a list on past claims first." },
  { name: 'customers', description: "A shopper's personal data across the store's orders, by email: erase it, or export all of it." },
  { name: 'addresses', description: 'Check that a US address is deliverable before shipping; no side effects.' },
  { name: 'billing', description: 'The store\'s monthly premium statement, read from the premium ledger.' },
  { name: 'webhookEndpoints', description: 'Where the service sends events: signed HTTP POSTs in the Standard Webhooks format, retried for about three days.' },
  { name: 'events', description: 'What changed in the store (orders, premiums, shipments, claims), newest first; resend one to an endpoint.' },
  {
    name: 'webhooks',
    description:
      'Messages from a commerce-platform backend: order.placed, fulfillment.created, refund.created, and the privacy messages ' +
      'customer.redact, customer.data_request, store.redact and store.redact_cancelled.',
  },
  { name: 'tracking', description: 'Callbacks from the tracking provider (EasyPost tracker events).' },
  {
    name: ROUTE_COMPATIBILITY_TAG,
    description:
      "What Route's own store plugins (WooCommerce, PrestaShop, Magento 1) call: Route's v1 routes and WooCommerce's order " +
      'webhooks, so a store on them switches by repointing their hosts (docs/route-compatibility.md).',
  },
];

const successDescriptions: Record<string, string> = { '200': 'OK', '201': 'Created' };

/** The operation id ts-rest gives a route: its keys in the contract, joined by dots. */
function operationIdOf(route: AppRoute): string | undefined {
  for (const [group, routes] of Object.entries(contract)) {
    for (const [name, candidate] of Object.entries(routes as Record<string, unknown>)) if (candidate === route) return `${group}.${name}`;
  }
  return undefined;
}

function routeAuth(route: AppRoute): RouteAuth | undefined {
  return policyOf(route.metadata)?.auth;
}

export function buildOpenApiDocument(): Record<string, unknown> {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'Order Protection API',
        version: '2.0.0',
        contact: { name: 'Order Protection API support' },
        license: { name: 'Proprietary: for merchants of the service' },
        description:
          'Shipment protection for online-store orders. Integrate in three steps: quote a premium at checkout, ' +
          'register protected orders, register shipments. Every request with a key sends it in the `token` header ' +
          '(or `Authorization: Bearer`). Keys starting `ak_test_` validate and answer realistic objects but write ' +
          'nothing. Every response carries `X-Service-Mode` (and the legacy `X-Legacy-Mode`): `live` or `test`. ' +
          'Money: quote amounts are strings of major units; order and shipment amounts are JSON numbers with at most ' +
          'two decimals (a third decimal is 400, never rounded); webhook amounts are integer cents. USD only.',
      },
      servers: [
        {
          url: 'https://{host}',
          description: 'Your deployment of the service.',
          variables: { host: { default: 'localhost:3000', description: 'The host name (and port) the service is deployed at.' } },
        },
        {
          url: 'https://{legacyHost}',
          description: 'The previous host name serving the same API; integrations built before the rename need no change.',
          variables: { legacyHost: { default: 'localhost:3000', description: 'The previous host name of the deployment.' } },
        },
        { url: 'http://localhost:3000', description: 'Local service (npm start).' },
      ],
      tags: TAGS,
      components: {
        headers: HEADERS,
        securitySchemes: SECURITY_SCHEMES,
      },
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation, route) => {
        const op = operation as OperationLike;
        const auth = routeAuth(route);
        const idempotent = acceptsIdempotencyKey(route);
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          response.description = errorDescriptions[Number(status) as ErrorStatus] ?? successDescriptions[status] ?? status;
          response.headers = responseHeaders(auth, status, idempotent);
        }
        if (idempotent) op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
        const links = LINKS[`${operationIdOf(route)}`];
        // On the answer that creates or lists what the links read: 201, else 200.
        const success = (op.responses?.['201'] ?? op.responses?.['200']) as (ResponseLike & { links?: Record<string, Link> }) | undefined;
        if (links !== undefined && success !== undefined) success.links = links;
        if (operationIdOf(route) === 'webhookEndpoints.create') op.callbacks = EVENT_CALLBACK;
        // A body is required unless an empty one is valid (an update with nothing to change).
        if (op.requestBody && 'body' in route && isZodType(route.body)) op.requestBody.required = !route.body.safeParse({}).success;
        if (auth === 'api_key') op.security = [{ tokenHeader: [] }, { bearerAuth: [] }];
        if (auth === 'webhook_signature') op.security = [{ webhookSignature: [] }];
        if (auth === 'easypost_signature') op.security = [{ easyPostSignature: [] }];
        if (auth === 'woocommerce_signature') op.security = [{ wooCommerceSignature: [] }];
        const tag = (route.metadata as { tag?: unknown } | undefined)?.tag;
        if (typeof tag === 'string') op.tags = [tag];
        return op as unknown as typeof operation;
      },
    },
  );
  anyValueSchemas(document);
  nullableRules(document);
  nameTitledSchemas(document as unknown as SchemaObject);
  return document as unknown as Record<string, unknown>;
}

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
