// Applies the route policy each route declares in the contract (contract/policy.ts): which limit a
// request counts against, and what a test key gets. Authentication reads the same declaration.
import type { AppRouter } from '@ts-rest/core';
import { isAppRoute } from '@ts-rest/core';
import type { Request } from 'express';
import { policyOf, type RoutePolicy } from '../../contract/policy.js';
import type { Scope } from '../domain/access/index.js';
import { AppError } from '../domain/kernel/index.js';
import './request-types.js';

export function routePolicy(req: Request): RoutePolicy | undefined {
  return policyOf(req.tsRestRoute?.metadata);
}

/** The store scope of an authenticated key route; the key middleware guarantees it is there. */
export function scopeOf(req: { scope?: Scope }): Scope {
  if (!req.scope) throw new AppError('unauthorized', 'No API key.');
  return req.scope;
}

const testKeysSeeNoLiveData = () =>
  new AppError('not_found', 'Test keys never see live data: reads, updates, cancels and statements answer 404 for them.');

type Handler = (args: { req: Request }) => Promise<unknown>;

/**
 * Wraps the handlers of routes declared `testKeys: 'not_found'` so a test key gets 404 after its
 * request was validated exactly as a live key's would be (validation comes before existence).
 * The one place where a test key is kept away from live data.
 */
export function refuseTestKeysWhereDeclared<Implementation>(routes: AppRouter, implementation: Implementation): Implementation {
  const wrapped: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(routes)) {
    const handler = (implementation as Record<string, unknown>)[name];
    if (!isAppRoute(route)) {
      wrapped[name] = refuseTestKeysWhereDeclared(route, handler);
    } else if (policyOf(route.metadata)?.testKeys === 'not_found') {
      const inner = handler as Handler;
      wrapped[name] = (args: { req: Request }) => (args.req.scope?.mode === 'test' ? Promise.reject(testKeysSeeNoLiveData()) : inner(args));
    } else {
      wrapped[name] = handler;
    }
  }
  return wrapped as Implementation;
}
