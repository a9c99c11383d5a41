// Authenticates signed callbacks (no API key) on the raw body, after it is read and before it is
// validated: a bad signature is 401 whatever the body says.
import type { RequestHandler } from 'express';
import { AppError } from '../domain/errors.js';
import { verifyEasyPostWebhook } from '../tracking/easypost.js';
import { routeAuth } from './authenticate.js';
import './request-types.js';

export function authenticateSignature(easyPostWebhookSecret: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (routeAuth(req.tsRestRoute?.metadata) !== 'easypost_signature') return next();
    if (easyPostWebhookSecret === undefined) {
      return next(new AppError('not_found', 'EasyPost webhooks are not enabled on this deployment.'));
    }
    const headers = { 'x-hmac-signature': req.get('x-hmac-signature') };
    if (!verifyEasyPostWebhook(req.rawBody ?? Buffer.alloc(0), headers, easyPostWebhookSecret)) {
      return next(new AppError('unauthorized', 'The X-Hmac-Signature header is missing or does not match the body.'));
    }
    next();
  };
}
