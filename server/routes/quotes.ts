import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { centsToMajorString, quotesContract, type QuoteResponse } from '../../contract/index.js';
import type { QuoteRecord } from '../domain/quotes/index.js';
import type { ClientProfile } from '../domain/stores/index.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox/index.js';

const s = initServer();

/**
 * A quote answer. Route's WooCommerce plugin adds the fee only when payment_responsible.type is
 * paid_by_customer, and ticks the checkbox from ToggleState: a route-profile store is answered in
 * that vocabulary; every other store in the documented one.
 */
function toQuoteResponse(quote: QuoteRecord, profile: ClientProfile): z.input<typeof QuoteResponse> {
  return {
    id: quote.id,
    premium: { currency: 'USD', amount: centsToMajorString(quote.premiumCents) },
    covered: { currency: 'USD', amount: centsToMajorString(quote.cartValueCents) },
    payment_responsible: profile === 'route' ? { type: 'paid_by_customer', ToggleState: true } : { type: 'customer' },
    cart_ref: quote.cartRef,
    created_at: quote.createdAt.toISOString(),
    expires_at: quote.expiresAt.toISOString(),
  };
}

export const quotesRouter = ({ db, clock }: AppDeps) =>
  s.router(quotesContract, {
    create: async ({ body, req }) => {
      const scope = scopeOf(req);
      const quote = await commandsFor(scope.mode).createQuote(db, scope, body, clock.now());
      return { status: 201, body: toQuoteResponse(quote, scope.store.clientProfile) };
    },
  });
