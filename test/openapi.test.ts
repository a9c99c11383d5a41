// openapi.json is generated from the contract, committed, valid, and served.
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI, OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../contract/merchant-events.js';
import { buildOpenApiDocument, renderOpenApiDocument } from '../contract/openapi.js';
import { call } from './support/http.js';
import { seedStore, startService, type TestService } from './support/service.js';

interface Operation {
  summary?: string;
  description?: string;
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { required?: boolean };
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { description: string; headers?: Record<string, { $ref: string }>; content?: Record<string, { schema: { $ref?: string } }> }>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  tags: Array<{ name: string; description: string }>;
  servers: Array<{ url: string; variables?: Record<string, { default: string }> }>;
  components: { securitySchemes: Record<string, unknown>; headers: Record<string, unknown>; schemas: Record<string, unknown> };
};

const document = buildOpenApiDocument() as unknown as Document;
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service.close());

describe('openapi.json', () => {
  it('is up to date with the contract (run `npm run openapi` when this fails)', () => {
    expect(readFileSync('openapi.json', 'utf8')).toBe(renderOpenApiDocument());
  });

  it('passes an outside OpenAPI validator', async () => {
    const copy = JSON.parse(JSON.stringify(document)) as OpenAPI.Document;
    await expect(SwaggerParser.validate(copy)).resolves.toBeDefined();
  });

  it('documents every endpoint of the spec with the methods of the design', () => {
    const routes = operations.map(({ path, method }) => `${method.toUpperCase()} ${path}`).sort();
    expect(routes).toEqual(
      [
        'POST /v2/quotes',
        'POST /v2/orders',
        'POST /v2/orders/{source_order_id}/redact',
        'POST /v2/customers/redact',
        'POST /v2/customers/data_request',
        'POST /v1/webhook_endpoints',
        'GET /v1/webhook_endpoints',
        'GET /v1/webhook_endpoints/{id}',
        'PATCH /v1/webhook_endpoints/{id}',
        'DELETE /v1/webhook_endpoints/{id}',
        'POST /v1/webhook_endpoints/{id}/rotate_secret',
        'GET /v1/webhook_endpoints/{id}/deliveries',
        'GET /v1/events',
        'GET /v1/events/{id}',
        'POST /v1/events/{id}/resend',
        'GET /v2/orders/{source_order_id}',
        'POST /v2/orders/{source_order_id}',
        'PATCH /v2/orders/{source_order_id}',
        'POST /v1/orders/{source_order_id}/cancel',
        'POST /v1/shipments',
        'GET /v1/shipments/{tracking_number}',
        'POST /v1/shipments/{tracking_number}',
        'PATCH /v1/shipments/{tracking_number}',
        'POST /v1/shipments/{tracking_number}/cancel',
        'POST /v2/addresses/verify',
        'POST /api/webhooks/{platform_slug}',
        'POST /v1/claims',
        'GET /v1/claims',
        'GET /v1/claims/{id}',
        'GET /v1/claims/{id}/photos/{photo_id}',
        'POST /v1/claims/{id}/status',
        'GET /v1/claim_rules',
        'PUT /v1/claim_rules',
        'POST /v1/claim_rules/dry_run',
        'POST /v1/tracking/easypost/webhook',
        'GET /v1/billing/statements',
        'GET /v1/orders/{source_order_id}',
        'POST /v1/orders',
        'POST /v1/orders/{source_order_id}',
        'GET /v1/quote',
        'GET /v1/merchants',
        'GET /v1/merchants/{merchant_id}',
        'POST /webhooks/{merchant_id}',
      ].sort(),
    );
  });

  it('gives every operation a summary, a description, an id and its security', () => {
    for (const { path, method, operation } of operations) {
      const where = `${method} ${path}`;
      expect(operation.summary, where).toBeTruthy();
      expect(operation.description, where).toBeTruthy();
      expect(operation.operationId, where).toBeTruthy();
      const expected = path.startsWith('/api/webhooks')
        ? [{ webhookSignature: [] }]
        : path.startsWith('/v1/tracking/')
          ? [{ easyPostSignature: [] }]
          : path.startsWith('/webhooks/')
            ? [{ wooCommerceSignature: [] }]
            : [{ tokenHeader: [] }, { bearerAuth: [] }];
      expect(operation.security, where).toEqual(expected);
    }
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerAuth', 'easyPostSignature', 'eventSignature', 'tokenHeader', 'webhookSignature', 'wooCommerceSignature']);
  });

  it('documents event delivery as a callback of endpoint creation: the three Standard Webhooks headers, the signature, the event union', () => {
    const create = operations.find(({ operation }) => operation.operationId === 'webhookEndpoints.create')?.operation as unknown as OpenAPIV3.OperationObject;
    const callback = (create.callbacks?.event as OpenAPIV3.CallbackObject | undefined)?.['{$request.body#/url}']?.post;
    expect(callback?.security).toEqual([{ eventSignature: [] }]);
    expect((callback?.parameters as OpenAPIV3.ParameterObject[]).map((parameter) => [parameter.in, parameter.name, parameter.required])).toEqual([
      ['header', 'webhook-id', true],
      ['header', 'webhook-timestamp', true],
      ['header', 'webhook-signature', true],
    ]);
    const body = callback?.requestBody as OpenAPIV3.RequestBodyObject;
    expect(body.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/MerchantEvent' });
    const union = document.components.schemas.MerchantEvent as OpenAPIV3.SchemaObject;
    expect(Object.keys((union.discriminator as OpenAPIV3.DiscriminatorObject).mapping ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('describes every error response with the shared error schema', () => {
    for (const { path, method, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      const signed = path.startsWith('/api/webhooks') || path.startsWith('/v1/tracking/') || path.startsWith('/webhooks/');
      if (!signed) expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500']));
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const response = operation.responses[status];
        // An order create's 409 is the error with the order that landed beside it.
        const creates = method === 'post' && (path === '/v2/orders' || path === '/v1/orders') && status === '409';
        expect(response?.content?.['application/json']?.schema.$ref, `${method} ${path} ${status}`).toBe(creates ? '#/components/schemas/OrderConflict' : '#/components/schemas/Error');
        expect(response?.description, `${method} ${path} ${status}`).toMatch(/^[a-z_]+: /);
      }
    }
  });

  it('declares the headers every response carries, and the ones limits and retries add', () => {
    for (const { path, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const where = `${method} ${path} ${status}`;
        const names = Object.keys(response.headers ?? {});
        expect(names, where).toEqual(expect.arrayContaining(['X-Service-Mode', 'X-Legacy-Mode', 'X-Request-Id']));
        const keyRoute = operation.security?.some((scheme) => 'tokenHeader' in scheme) ?? false;
        // Every POST and PATCH of a key, but the data export, whose answer is personal data and never kept.
        const takesIdempotencyKey = keyRoute && (method === 'post' || method === 'put' || method === 'patch') && path !== '/v2/customers/data_request';
        expect(names.includes('Retry-After'), where).toBe(status === '429' || status === '500' || (takesIdempotencyKey && status === '409'));
        expect(names.includes('Idempotent-Replayed'), where).toBe(takesIdempotencyKey && status.startsWith('2'));
        const idempotencyKey = (operation.parameters ?? []).find((parameter) => parameter.name === 'Idempotency-Key' && parameter.in === 'header');
        expect(idempotencyKey !== undefined, where).toBe(takesIdempotencyKey);
        expect(names.includes('RateLimit-Remaining'), where).toBe(keyRoute && status !== '401' && status !== '403');
        for (const header of Object.values(response.headers ?? {})) {
          expect(document.components.headers[header.$ref.replace('#/components/headers/', '')], where).toBeDefined();
        }
      }
    }
  });

  it('sends the headers it declares, on successes and errors alike', async () => {
    const shop = await seedStore(service.db);
    const answers = [
      await fetch(`${service.baseUrl}/v2/quotes`, {
        method: 'POST',
        headers: { token: shop.testKey, 'content-type': 'application/json' },
        body: JSON.stringify({ cart: { covered: { amount: '10.00' } } }),
      }), // 201, test mode
      await fetch(`${service.baseUrl}/v1/billing/statements?month=2026-13`, { headers: { token: shop.liveKey } }), // 400
      await fetch(`${service.baseUrl}/v2/orders/nope`, { headers: { token: 'ak_test_not-a-key' } }), // 401
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 400, 401]);
    for (const answer of answers) {
      expect(answer.headers.get('x-service-mode')).toMatch(/^(live|test)$/);
      expect(answer.headers.get('x-legacy-mode')).toBe(answer.headers.get('x-service-mode'));
      expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    }
    expect(answers[0]?.headers.get('x-service-mode')).toBe('test');
  });

  it('requires a body wherever an empty one is refused, and not on updates, where it is a no-op', () => {
    const required = Object.fromEntries(
      operations.filter(({ operation }) => operation.requestBody).map(({ path, method, operation }) => [`${method} ${path}`, operation.requestBody?.required]),
    );
    expect(required['post /v2/orders']).toBe(true);
    expect(required['post /v2/quotes']).toBe(true);
    expect(required['post /v1/shipments']).toBe(true);
    expect(required['post /api/webhooks/{platform_slug}']).toBe(true);
    expect(required['patch /v2/orders/{source_order_id}']).toBe(false);
  });

  it('names its tags and servers: the deployment and the legacy host as variables, and localhost', () => {
    const operationTags = new Set(operations.flatMap(({ operation }) => (operation as { tags?: string[] }).tags ?? []));
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...operationTags].sort());
    for (const tag of document.tags) expect(tag.description.length).toBeGreaterThan(20);
    expect(document.servers.map((server) => server.url)).toEqual(['https://{host}', 'https://{legacyHost}', 'http://localhost:3000']);
  });

  it('names each platform message and its acknowledgement as a component with an example, and maps the discriminator', () => {
    const schemas = (document.components as unknown as { schemas: Record<string, { example?: unknown }> }).schemas;
    const messages = ['OrderPlacedMessage', 'FulfillmentCreatedMessage', 'RefundCreatedMessage', 'CustomerRedactMessage', 'CustomerDataRequestMessage', 'StoreRedactMessage', 'StoreRedactCancelledMessage'];
    for (const name of [...messages, 'WebhookAcknowledgement', 'CustomerDataExport']) {
      expect(schemas[name]?.example, name).toBeDefined();
    }
    const body = (document.paths['/api/webhooks/{platform_slug}']?.post as unknown as {
      requestBody: { content: Record<string, { schema: { discriminator: { mapping: Record<string, string> } } }> };
    }).requestBody.content['application/json']?.schema;
    expect(body?.discriminator.mapping).toEqual({
      'order.placed': '#/components/schemas/OrderPlacedMessage',
      'fulfillment.created': '#/components/schemas/FulfillmentCreatedMessage',
      'refund.created': '#/components/schemas/RefundCreatedMessage',
      'customer.redact': '#/components/schemas/CustomerRedactMessage',
      'customer.data_request': '#/components/schemas/CustomerDataRequestMessage',
      'store.redact': '#/components/schemas/StoreRedactMessage',
      'store.redact_cancelled': '#/components/schemas/StoreRedactCancelledMessage',
    });
  });

  it('links the integration steps, each link to a real operation, parameter and answer field', () => {
    type Linked = { operationId: string; parameters?: Record<string, string>; requestBody?: Record<string, string> };
    const byId = new Map(operations.map(({ operation }) => [operation.operationId, operation as Operation & { parameters?: Array<{ name: string }> }]));
    const schemas = (document.components as unknown as { schemas: Record<string, { properties?: Record<string, unknown> }> }).schemas;
    const linked: string[] = [];
    for (const { operation } of operations) {
      const created = operation.responses['201'] as { links?: Record<string, Linked>; content?: Record<string, { schema: { $ref?: string } }> } | undefined;
      for (const link of Object.values(created?.links ?? {})) {
        const target = byId.get(link.operationId);
        expect(target, link.operationId).toBeDefined();
        const answer = schemas[(created?.content?.['application/json']?.schema.$ref ?? '').replace('#/components/schemas/', '')];
        for (const [name, expression] of Object.entries({ ...link.parameters, ...link.requestBody })) {
          const field = expression.replace('$response.body#/', '');
          expect(answer?.properties?.[field], `${operation.operationId} -> ${link.operationId}: ${field}`).toBeDefined();
          if (link.parameters?.[name] !== undefined) expect(target?.parameters?.map((p) => p.name), link.operationId).toContain(name);
        }
        linked.push(`${operation.operationId} -> ${link.operationId}`);
      }
    }
    expect(linked).toEqual(expect.arrayContaining(['quotes.create -> orders.create', 'orders.create -> shipments.create', 'shipments.create -> claims.create']));
  });

  it('states the REST amount rules on every amount of an order: range, and at most two decimals as an extension', () => {
    const schemas = (document.components as unknown as { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> }).schemas;
    const amounts = [
      ...['subtotal', 'order_total', 'shipping_total', 'discounts_total', 'taxes'].map((field) => schemas.OrderRequest?.properties[field]),
      schemas.OrderLineItem?.properties.price,
      schemas.OrderUpdateRequest?.properties.subtotal,
    ];
    for (const amount of amounts) {
      expect(amount).toMatchObject({ type: 'number', minimum: 0, maximum: 9999999999.99, 'x-max-decimal-places': 2 });
    }
  });

  it('gives every schema that allows null a type (OpenAPI 3.0 has no null type of its own)', () => {
    const offenders: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.nullable === true && schema.type === undefined && schema.$ref === undefined && schema.allOf === undefined && schema.oneOf === undefined && schema.anyOf === undefined) offenders.push(where);
      for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
    };
    walk(document, '');
    expect(offenders).toEqual([]);
  });

  it('is served at GET /openapi.json', async () => {
    const response = await call(service.baseUrl, 'GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(JSON.parse(renderOpenApiDocument()));
  });
});
