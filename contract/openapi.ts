// Builds the OpenAPI document from the contract. `npm run openapi` writes it to openapi.json and
// the server serves the same document at GET /openapi.json.
import { generateOpenApi } from '@ts-rest/open-api';
import { isZodType, type AppRoute } from '@ts-rest/core';
import { contract } from './index.js';
import {
  ENDPOINT_SECRET_PREFIX,
  EVENT_ID_HEADER,
  EVENT_SIGNATURE_HEADER,
  EVENT_TIMESTAMP_HEADER,
  EVENT_TOLERANCE_SECONDS,
} from './merchant-events.js';
import { ROUTE_COMPATIBILITY_TAG } from './route-compatibility.js';
import {
  acceptsIdempotencyKey,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENT_REPLAYED_HEADER,
  policyOf,
  type RouteAuth,
} from './policy.js';
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
  { name: 'claims', description: 'File and follow a claim on a protected order; an open claim blocks cancelling.' },
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

/** Response headers of the contract, defined once and referenced by every response that carries them. */
const HEADERS = {
  'X-Service-Mode': {
    description: 'live, or test when the request presented a test key (or a platform message declared test mode).',
    schema: { type: 'string', enum: ['live', 'test'] },
  },
  'X-Legacy-Mode': { description: 'The same value as X-Service-Mode, for integrations built before the rename.', schema: { type: 'string', enum: ['live', 'test'] } },
  'X-Request-Id': { description: 'The request id: the X-Request-Id sent, when well-formed, else one generated. Support asks for it.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed in the window of the tightest limit that applies.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until that window resets.', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': {
    description:
      'Seconds to wait before retrying: on 429, on 500 while the database is away for a moment, and on 409 while an earlier ' +
      'request with the same Idempotency-Key still runs.',
    schema: { type: 'integer', minimum: 1 },
  },
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: 'true when this answer is the stored answer of an earlier request with the same Idempotency-Key (nothing ran again).',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

/** The request header of every POST and PATCH of the merchant API (contract/policy.ts, acceptsIdempotencyKey). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first request with a key runs and its successful answer is kept for 24 hours; the same key with ' +
    'the same request (method, path and body bytes) gets that answer again, marked Idempotent-Replayed: true. The same key ' +
    'with another request is 422; while the first still runs, 409 with Retry-After. Failed requests (4xx, 5xx) are not kept. ' +
    'Test keys accept it and keep nothing. Live keys only; 1 to 255 visible ASCII characters, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN.source },
  example: '5f0c6a2e-8d4b-4b8e-9a51-3c2d7e6f1a90',
} as const;

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The headers a response of an operation carries, by its authentication and its status. */
function responseHeaders(auth: RouteAuth | undefined, status: string, idempotent: boolean): Record<string, { $ref: string }> {
  const headers: Record<string, { $ref: string }> = {
    'X-Service-Mode': headerRef('X-Service-Mode'),
    'X-Legacy-Mode': headerRef('X-Legacy-Mode'),
    'X-Request-Id': headerRef('X-Request-Id'),
  };
  // Limits are counted once the key is known: every answer after that carries them.
  if (auth === 'api_key' && status !== '401' && status !== '403') {
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const) headers[name] = headerRef(name);
  }
  if (status === '429' || status === '500' || (idempotent && status === '409')) headers['Retry-After'] = headerRef('Retry-After');
  if (idempotent && status.startsWith('2')) headers[IDEMPOTENT_REPLAYED_HEADER] = headerRef(IDEMPOTENT_REPLAYED_HEADER);
  return headers;
}

interface Link {
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
const LINKS: Record<string, Record<string, Link>> = {
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
  },
};

type SchemaObject = Record<string, unknown>;
const isSchemaObject = (value: unknown): value is SchemaObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Every titled schema becomes a named component, wherever ts-rest left it inline (the members of a
 * oneOf, such as the three platform messages), so that generators name the type and Redoc renders
 * it. A oneOf with a discriminator gets its mapping from each member's constant.
 */
function nameTitledSchemas(document: SchemaObject): void {
  const components = (document.components as SchemaObject).schemas as Record<string, SchemaObject>;
  const hoist = (node: unknown, isComponentRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => hoist(item, false));
    if (!isSchemaObject(node)) return node;
    for (const [key, value] of Object.entries(node)) {
      // Schemas sit under these keys; examples and the like are left alone.
      if (['properties', 'items', 'oneOf', 'anyOf', 'allOf', 'additionalProperties', 'schema', 'content', 'requestBody', 'responses', 'paths'].includes(key) || /^(application\/|[0-9]{3}$|\/)/.test(key) || key === 'get' || key === 'post' || key === 'patch') {
        node[key] = isSchemaObject(value) && key === 'properties'
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, hoist(property, false)]))
          : hoist(value, false);
      }
    }
    const title = node.title;
    if (isComponentRoot || typeof title !== 'string' || node.type !== 'object') return node;
    const existing = components[title];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(node)) return node;
    components[title] = node;
    return { $ref: `#/components/schemas/${title}` };
  };
  for (const [name, schema] of Object.entries(components)) components[name] = hoist(schema, true) as SchemaObject;
  document.paths = hoist(document.paths, false);
  const addMappings = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(addMappings);
    if (!isSchemaObject(node)) return;
    const discriminator = node.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (discriminator && Array.isArray(node.oneOf)) {
      const mapping: Record<string, string> = {};
      for (const member of node.oneOf as Array<{ $ref?: string }>) {
        const target = member.$ref === undefined ? undefined : components[member.$ref.replace('#/components/schemas/', '')];
        const value = ((target?.properties as SchemaObject | undefined)?.[discriminator.propertyName] as { enum?: string[] } | undefined)?.enum?.[0];
        if (member.$ref !== undefined && value !== undefined) mapping[value] = member.$ref;
      }
      if (Object.keys(mapping).length === (node.oneOf as unknown[]).length) discriminator.mapping = mapping;
    }
    Object.values(node).forEach(addMappings);
  };
  addMappings(document);
}

/**
 * zod's z.unknown() comes out as { nullable: true } with no type, which OpenAPI 3.0 does not allow:
 * any JSON value is the empty schema.
 */
/**
 * What OpenAPI 3.0.3 asks of a nullable schema: an enum lists null among its values (validators
 * check enum first, and would refuse the null that nullable allows), and a nullable reference
 * (zod's .nullable() on a named object: allOf with one $ref) says its type.
 */
function nullableRules(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(nullableRules);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  if (schema.nullable === true && schema.type === undefined && Array.isArray(schema.allOf)) schema.type = 'object';
  Object.values(schema).forEach(nullableRules);
}

function anyValueSchemas(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(anyValueSchemas);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    const schema = value as Record<string, unknown> | null;
    if (schema !== null && typeof schema === 'object' && !Array.isArray(schema) && Object.keys(schema).length === 1 && schema.nullable === true) {
      record[key] = {};
    } else {
      anyValueSchemas(value);
    }
  }
}

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

/**
 * How events reach an endpoint, as a callback of the operation that creates it: the request the
 * service makes to the endpoint's url, its headers and body, and the answers it expects.
 */
const EVENT_CALLBACK = {
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
        securitySchemes: {
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
        },
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
