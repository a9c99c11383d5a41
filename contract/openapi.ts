// Builds the OpenAPI document from the contract. `npm run openapi` writes it to openapi.json and
// the server serves the same document at GET /openapi.json.
import { generateOpenApi } from '@ts-rest/open-api';
import type { AppRoute } from '@ts-rest/core';
import { contract } from './index.js';
import { policyOf, type RouteAuth } from './policy.js';
import { errorDescriptions, type ErrorStatus } from './errors.js';

interface OperationLike {
  responses?: Record<string, { description?: string }>;
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

const successDescriptions: Record<string, string> = { '200': 'OK', '201': 'Created' };

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
        description:
          'Shipment protection for online-store orders. Integrate in three steps: quote a premium at checkout, ' +
          'register protected orders, register shipments. Every request with a key sends it in the `token` header ' +
          '(or `Authorization: Bearer`). Keys starting `ak_test_` validate and answer realistic objects but write ' +
          'nothing. Every response carries `X-Service-Mode` (and the legacy `X-Legacy-Mode`): `live` or `test`. ' +
          'Money: quote amounts are strings of major units; order and shipment amounts are JSON numbers with at most ' +
          'two decimals (a third decimal is 400, never rounded); webhook amounts are integer cents. USD only.',
      },
      servers: [{ url: 'http://localhost:3000', description: 'Local service (npm start)' }],
      components: {
        securitySchemes: {
          tokenHeader: { type: 'apiKey', in: 'header', name: 'token', description: 'Secret key: ak_live_... or ak_test_...' },
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'The same secret key as a Bearer token.' },
          easyPostSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Hmac-Signature',
            description: 'hmac-sha256-hex=<hex HMAC-SHA256 of the raw body with the EasyPost webhook secret>.',
          },
          webhookSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Webhook-Signature',
            description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the platform secret>; 300 s window.',
          },
        },
      },
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation, route) => {
        const op = operation as OperationLike;
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          response.description = errorDescriptions[Number(status) as ErrorStatus] ?? successDescriptions[status] ?? status;
        }
        const auth = routeAuth(route);
        if (auth === 'api_key') op.security = [{ tokenHeader: [] }, { bearerAuth: [] }];
        if (auth === 'webhook_signature') op.security = [{ webhookSignature: [] }];
        if (auth === 'easypost_signature') op.security = [{ easyPostSignature: [] }];
        return op as unknown as typeof operation;
      },
    },
  );
  return document as unknown as Record<string, unknown>;
}

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
