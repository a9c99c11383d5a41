// The store's client profile, applied once to every key route's body (README, Route's plugins):
// a store that declared `route` has what Route's plugins send read into the documented wire forms
// (contract/client-profile.ts) before the contract validates it. A `standard` store's body is
// validated exactly as sent.
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { readRouteBody } from '../../contract/client-profile.js';
import './request-types.js';

export const readClientProfileBody: RequestHandler = (req, _res, next) => {
  const route = req.tsRestRoute;
  const schema = route !== undefined && 'body' in route ? route.body : undefined;
  if (req.scope?.store.clientProfile === 'route' && schema instanceof z.ZodType) req.body = readRouteBody(schema, req.body);
  next();
};
