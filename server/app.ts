// Builds the Express app: one place for every cross-cutting concern (request id, mode headers,
// authentication, body parsing, validation errors, unknown routes, error mapping). Tests import it.
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express from 'express';
import { callbackContract, contract, merchantApiContract } from '../contract/index.js';
import { buildOpenApiDocument } from '../contract/openapi.js';
import type { AppDeps } from './deps.js';
import { authenticateKey } from './http/authenticate.js';
import { docsPage } from './http/docs-page.js';
import { claimsApp, consoleApp } from './http/web-app.js';
import { parseJsonBody, readRawBody } from './http/body.js';
import { errorHandler, requestValidationErrorHandler, unmatchedRoute } from './http/errors.js';
import { healthRoutes } from './http/health.js';
import { requestContext } from './http/request-context.js';
import { securityHeaders } from './http/security-headers.js';
import { refuseTestKeysWhereDeclared } from './http/route-policy.js';
import { identifySigner, verifySignature } from './http/signatures.js';
import { ordersRouter } from './routes/orders.js';
import { quotesRouter } from './routes/quotes.js';
import { claimRulesRouter } from './routes/claim-rules.js';
import { claimsRouter } from './routes/claims.js';
import { customersRouter } from './routes/customers.js';
import { shipmentsRouter } from './routes/shipments.js';
import { trackingRouter } from './routes/tracking.js';
import { addressesRouter } from './routes/addresses.js';
import { webhooksRouter } from './routes/webhooks.js';
import { billingRouter } from './routes/billing.js';
import { routeCompatibilityRouter } from './routes/route-compatibility.js';
import { wooCommerceRouter } from './routes/woocommerce.js';
import { readClientProfileBody } from './http/client-profile.js';
import { idempotencyKeys } from './http/idempotency.js';
import { eventsRouter, webhookEndpointsRouter } from './routes/merchant-events.js';
import { consoleContract } from '../contract/console/index.js';
import { createKeyUseRecorder } from './domain/access/index.js';
import { consoleSession } from './http/console-session.js';
import { logKeyRequests } from './http/request-log.js';
import { consoleApiKeysRouter } from './routes/console/api-keys.js';
import { consoleSessionRouter } from './routes/console/session.js';
import { consoleStoreRouters } from './routes/console/store.js';
import { consoleSettingsRouter } from './routes/console/settings.js';
import { shopperContract } from '../contract/shopper/index.js';
import { shopperRouter } from './routes/shopper.js';
import { shopperSession } from './http/shopper-session.js';

const s = initServer();
/** Every route this app serves, for telling an unknown path (404) from a wrong method (405). */
const contractsServed = { ...contract, console: consoleContract, shopper: shopperContract };

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Behind N proxies the shopper's IP is N hops back in X-Forwarded-For (browser quote limits).
  app.set('trust proxy', deps.trustedProxies ?? 0);

  app.use(requestContext(deps.logger, deps.metrics));
  app.use(securityHeaders());
  if (deps.exposeMetrics) {
    app.get('/metrics', (_req, res, next) => {
      deps.metrics.registry
        .metrics()
        .then((text) => res.type(deps.metrics.registry.contentType).send(text))
        .catch(next);
    });
  }

  const openApiDocument = buildOpenApiDocument();
  app.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });

  // One router per surface, each with the middleware its policy needs. The merchant API: the key,
  // the limits, the body's bytes, the JSON, the idempotency key, then the validation. Callbacks: the
  // sender and its signature header, the body's bytes, the signature on those bytes, then the JSON.
  // The console and the claim page: the session (and CSRF token), then the body. Nothing reads a
  // body before its sender's identity is decided from the headers, nor walks one whose signature
  // failed; every key request counts against the limits.
  const merchantApi = s.router(
    merchantApiContract,
    refuseTestKeysWhereDeclared(merchantApiContract, {
      quotes: quotesRouter(deps),
      orders: ordersRouter(deps),
      shipments: shipmentsRouter(deps),
      claims: claimsRouter(deps),
      claimRules: claimRulesRouter(deps),
      customers: customersRouter(deps),
      addresses: addressesRouter(deps),
      billing: billingRouter(deps),
      webhookEndpoints: webhookEndpointsRouter(deps),
      events: eventsRouter(deps),
      routeCompatibility: routeCompatibilityRouter(deps),
    }),
  );
  createExpressEndpoints(merchantApiContract, merchantApi, app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: true,
    globalMiddleware: [
      authenticateKey(deps.db, deps.apiKeys.callers, { recorder: createKeyUseRecorder(deps.db), clock: deps.clock }),
      logKeyRequests(deps.requestLog, deps.clock),
      ...(deps.rateLimiting ? [deps.rateLimiting.middleware] : []),
      readRawBody,
      parseJsonBody,
      idempotencyKeys(deps),
      readClientProfileBody,
    ],
    requestValidationErrorHandler,
  });
  const callbacks = s.router(callbackContract, { tracking: trackingRouter(deps), webhooks: webhooksRouter(deps), woocommerce: wooCommerceRouter(deps) });
  createExpressEndpoints(callbackContract, callbacks, app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: true,
    globalMiddleware: [identifySigner(deps), readRawBody, verifySignature, parseJsonBody],
    requestValidationErrorHandler,
  });

  // The console's API: a session cookie (and CSRF token for changes) instead of a key.
  const consoleApi = s.router(consoleContract, {
    session: consoleSessionRouter(deps),
    keys: consoleApiKeysRouter(deps),
    settings: consoleSettingsRouter(deps),
    ...consoleStoreRouters(deps),
  });
  createExpressEndpoints(consoleContract, consoleApi, app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: true,
    globalMiddleware: [consoleSession(deps), readRawBody, parseJsonBody],
    requestValidationErrorHandler,
  });

  // The claim page's API: no key; limits per IP, a signed shopper session for one order.
  createExpressEndpoints(shopperContract, shopperRouter(deps), app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: true,
    globalMiddleware: [...(deps.rateLimiting ? [deps.rateLimiting.middleware] : []), shopperSession(deps), readRawBody, parseJsonBody],
    requestValidationErrorHandler,
  });

  // The probes and the pages come after the API: a router mounted at / is entered by every request
  // that reaches it, and an API request should not walk four of them first (docs/performance.md).
  app.use(healthRoutes(deps));
  app.use(docsPage());
  app.use(consoleApp());
  app.use(claimsApp());

  app.use(unmatchedRoute(contractsServed, [{ method: 'GET', path: '/openapi.json' }, { method: 'GET', path: '/healthz' }, { method: 'GET', path: '/readyz' }, { method: 'GET', path: '/docs' }]));
  app.use(errorHandler(deps.logger));
  return app;
}
