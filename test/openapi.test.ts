// openapi.json is generated from the contract, committed, valid, and served.
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, renderOpenApiDocument } from '../contract/openapi.js';
import { call } from './support/http.js';
import { startService, type TestService } from './support/service.js';

interface Operation {
  summary?: string;
  description?: string;
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

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
        'POST /v1/tracking/easypost/webhook',
        'GET /v1/billing/statements',
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
          : [{ tokenHeader: [] }, { bearerAuth: [] }];
      expect(operation.security, where).toEqual(expected);
    }
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerAuth', 'easyPostSignature', 'tokenHeader', 'webhookSignature']);
  });

  it('describes every error response with the shared error schema', () => {
    for (const { path, method, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      if (!path.startsWith('/api/webhooks') && !path.startsWith('/v1/tracking/')) expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500']));
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const response = operation.responses[status];
        expect(response?.content?.['application/json']?.schema.$ref, `${method} ${path} ${status}`).toBe('#/components/schemas/Error');
        expect(response?.description, `${method} ${path} ${status}`).toMatch(/^[a-z_]+: /);
      }
    }
  });

  it('is served at GET /openapi.json', async () => {
    const response = await call(service.baseUrl, 'GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(JSON.parse(renderOpenApiDocument()));
  });
});
