// Authenticates signed callbacks (no API key) on the raw bytes of the body, before they are parsed
// or walked: a bad signature is 401 whatever the body says, and costs us no JSON work.
//   webhook_signature:  platform messages, X-Webhook-Signature with the platform's shared secret
//   easypost_signature: EasyPost tracker events, X-Hmac-Signature with the EasyPost webhook secret
import type { RequestHandler } from 'express';
import { verifyWebhookSignature, verifyWooCommerceSignature, WEBHOOK_SIGNATURE_HEADER, WOOCOMMERCE_SIGNATURE_HEADER } from '../../contract/webhook-signature.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/clock.js';
import { AppError } from '../domain/errors.js';
import { findPlatform } from '../domain/platforms.js';
import type { PlatformCaches } from '../domain/api-key-cache.js';
import { matchingSigner, wooCommerceSigners } from '../domain/woocommerce-orders.js';
import { verifyEasyPostWebhook } from '../tracking/easypost.js';
import { isFormPing } from './body.js';
import { routePolicy } from './route-policy.js';
import './request-types.js';

const signatureProblems = {
  missing: `The ${WEBHOOK_SIGNATURE_HEADER} header is missing.`,
  malformed: `The ${WEBHOOK_SIGNATURE_HEADER} header must read t=<unix seconds>,v1=<hex HMAC-SHA256>.`,
  expired: 'The signature timestamp is more than 300 seconds from the server clock (replayed or clock skew).',
  mismatch: 'The signature does not match the body.',
} as const;

export function authenticateSignature(deps: { db: Database; clock: Clock; apiKeys?: PlatformCaches; easyPostWebhookSecret?: string | undefined }): RequestHandler {
  return (req, _res, next) => {
    const auth = routePolicy(req)?.auth;
    if (auth === 'easypost_signature') {
      if (deps.easyPostWebhookSecret === undefined) {
        return next(new AppError('not_found', 'EasyPost webhooks are not enabled on this deployment.'));
      }
      const headers = { 'x-hmac-signature': req.get('x-hmac-signature') };
      if (!verifyEasyPostWebhook(req.rawBody ?? Buffer.alloc(0), headers, deps.easyPostWebhookSecret)) {
        return next(new AppError('unauthorized', 'The X-Hmac-Signature header is missing or does not match the body.'));
      }
      return next();
    }
    if (auth === 'woocommerce_signature') {
      const merchantId = String(req.params.merchant_id ?? '');
      wooCommerceSigners(deps.db, merchantId)
        .then((found) => {
          if (!found) throw new AppError('not_found', `No store "${merchantId}".`);
          // The ping is sent unsigned and changes nothing: it only needs a 200.
          if (isFormPing(req)) {
            req.scope = { store: found.store, mode: 'live', actor: { kind: 'platform', platform: 'woocommerce' } };
            return next();
          }
          const rawBody = req.rawBody ?? Buffer.alloc(0);
          const header = req.get(WOOCOMMERCE_SIGNATURE_HEADER);
          const signer = matchingSigner(found.signers, (secret) => verifyWooCommerceSignature(header, rawBody, secret));
          if (!signer) throw new AppError('unauthorized', `The ${WOOCOMMERCE_SIGNATURE_HEADER} header is missing or does not match the body.`);
          req.scope = { store: found.store, mode: signer.mode, actor: signer.actor };
          next();
        })
        .catch(next);
      return;
    }
    if (auth !== 'webhook_signature') return next();

    const slug = String(req.params.platform_slug ?? '');
    findPlatform(deps.db, slug, deps.apiKeys)
      .then((platform) => {
        if (!platform) throw new AppError('not_found', `No platform "${slug}".`);
        const rawBody = req.rawBody ?? Buffer.alloc(0);
        const check = verifyWebhookSignature(req.get(WEBHOOK_SIGNATURE_HEADER), rawBody, platform.secret, deps.clock.now());
        if (!check.valid) throw new AppError('unauthorized', signatureProblems[check.reason]);
        req.platform = { id: platform.id, slug: platform.slug };
        next();
      })
      .catch(next);
  };
}
