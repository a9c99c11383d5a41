// Authenticates signed callbacks (no API key) in two steps around the reading of the body, so that
// a sender who cannot be authenticated costs no more than its identity check:
//   identifySigner   before any byte of the body is read: the sender (platform, store, EasyPost
//                    secret) is known, and the signature header is present and well-formed (for
//                    platform messages, also within its 300 s). Anything else is refused at once.
//                    WooCommerce's ping, the one unsigned message, may not be longer than a ping.
//   verifySignature  on the raw bytes, before they are parsed or walked: a bad signature is 401
//                    whatever the body says, and costs us no JSON work.
// The routes: webhook_signature (platform messages, X-Webhook-Signature with the platform's shared
// secret), easypost_signature (X-Hmac-Signature with the EasyPost webhook secret) and
// woocommerce_signature (X-WC-Webhook-Signature with a key's or the store's WooCommerce secret).
import type { Request, RequestHandler } from 'express';
import {
  isWooCommerceSignatureShaped,
  readWebhookSignatureHeader,
  verifyWooCommerceSignature,
  WEBHOOK_SIGNATURE_HEADER,
  webhookSignatureMatches,
  WOOCOMMERCE_SIGNATURE_HEADER,
  type WebhookSignatureHeader,
} from '../../contract/webhook-signature.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/kernel/index.js';
import { AppError } from '../domain/kernel/index.js';
import { findPlatform, matchingSigner, type WooCommerceSigner, wooCommerceSigners } from '../domain/platforms/index.js';
import type { PlatformCaches } from '../domain/access/index.js';

import { easyPostSignatureHex, verifyEasyPostWebhook } from '../tracking/easypost.js';
import { FORM_PING_MAX_BYTES, isFormPing } from './body.js';
import { routePolicy } from './route-policy.js';
import './request-types.js';

const signatureProblems = {
  missing: `The ${WEBHOOK_SIGNATURE_HEADER} header is missing.`,
  malformed: `The ${WEBHOOK_SIGNATURE_HEADER} header must read t=<unix seconds>,v1=<hex HMAC-SHA256>.`,
  expired: 'The signature timestamp is more than 300 seconds from the server clock (replayed or clock skew).',
  mismatch: 'The signature does not match the body.',
} as const;

const wooCommerceUnsigned = () => new AppError('unauthorized', `The ${WOOCOMMERCE_SIGNATURE_HEADER} header is missing or does not match the body.`);
const easyPostUnsigned = () => new AppError('unauthorized', 'The X-Hmac-Signature header is missing or does not match the body.');

/** What identifySigner learnt from the headers, for verifySignature to check against the bytes. */
type PendingSignature =
  | { kind: 'platform'; platform: { id: string; slug: string; secret: string }; header: Extract<WebhookSignatureHeader, { valid: true }> }
  | { kind: 'easypost'; secret: string }
  | { kind: 'woocommerce'; store: NonNullable<Awaited<ReturnType<typeof wooCommerceSigners>>>['store']; signers: WooCommerceSigner[] }
  | { kind: 'woocommerce_ping' };

const pending = new WeakMap<Request, PendingSignature>();

interface SignerDeps {
  db: Database;
  clock: Clock;
  apiKeys?: PlatformCaches;
  easyPostWebhookSecret?: string | undefined;
}

/** A declared body length over `max` (a chunked body is held to it while it is read). */
const declaredLongerThan = (req: Request, max: number) => Number(req.get('content-length') ?? 0) > max;

export function identifySigner(deps: SignerDeps): RequestHandler {
  return (req, _res, next) => {
    const auth = routePolicy(req)?.auth;
    if (auth === 'easypost_signature') {
      if (deps.easyPostWebhookSecret === undefined || deps.easyPostWebhookSecret === '') {
        return next(new AppError('not_found', 'EasyPost webhooks are not enabled on this deployment.'));
      }
      if (easyPostSignatureHex({ 'x-hmac-signature': req.get('x-hmac-signature') }) === null) return next(easyPostUnsigned());
      pending.set(req, { kind: 'easypost', secret: deps.easyPostWebhookSecret });
      return next();
    }
    if (auth === 'woocommerce_signature') {
      const merchantId = String(req.params.merchant_id ?? '');
      wooCommerceSigners(deps.db, merchantId)
        .then((found) => {
          if (!found) throw new AppError('not_found', `No store "${merchantId}".`);
          // The ping is sent unsigned and changes nothing: it only needs a 200. Nothing longer
          // than a ping is taken unsigned (a larger form body is refused before it is read).
          if (isFormPing(req)) {
            if (declaredLongerThan(req, FORM_PING_MAX_BYTES)) throw wooCommerceUnsigned();
            req.scope = { store: found.store, mode: 'live', actor: { kind: 'platform', platform: 'woocommerce' } };
            pending.set(req, { kind: 'woocommerce_ping' });
            return next();
          }
          if (!isWooCommerceSignatureShaped(req.get(WOOCOMMERCE_SIGNATURE_HEADER)) || found.signers.length === 0) throw wooCommerceUnsigned();
          pending.set(req, { kind: 'woocommerce', store: found.store, signers: found.signers });
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
        const header = readWebhookSignatureHeader(req.get(WEBHOOK_SIGNATURE_HEADER), deps.clock.now());
        if (!header.valid) throw new AppError('unauthorized', signatureProblems[header.reason]);
        pending.set(req, { kind: 'platform', platform: { id: platform.id, slug: platform.slug, secret: platform.secret }, header });
        next();
      })
      .catch(next);
  };
}

/** Checks the signature identifySigner found on the body's exact bytes. */
export const verifySignature: RequestHandler = (req, _res, next) => {
  const signature = pending.get(req);
  if (signature === undefined) return next();
  pending.delete(req);
  const rawBody = req.rawBody ?? Buffer.alloc(0);
  switch (signature.kind) {
    case 'easypost':
      return next(verifyEasyPostWebhook(rawBody, { 'x-hmac-signature': req.get('x-hmac-signature') }, signature.secret) ? undefined : easyPostUnsigned());
    case 'woocommerce_ping':
      return next();
    case 'woocommerce': {
      const header = req.get(WOOCOMMERCE_SIGNATURE_HEADER);
      const signer = matchingSigner(signature.signers, (secret) => verifyWooCommerceSignature(header, rawBody, secret));
      if (!signer) return next(wooCommerceUnsigned());
      req.scope = { store: signature.store, mode: signer.mode, actor: signer.actor };
      return next();
    }
    case 'platform':
      if (!webhookSignatureMatches(signature.header, rawBody, signature.platform.secret)) return next(new AppError('unauthorized', signatureProblems.mismatch));
      req.platform = { id: signature.platform.id, slug: signature.platform.slug };
      return next();
  }
};
