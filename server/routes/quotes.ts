import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { centsToMajorString, quotesContract, type QuoteResponse } from '../../contract/index.js';
import type { QuoteRecord } from '../domain/quotes.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox.js';

const s = initServer();

function toQuoteResponse(quote: QuoteRecord): z.input<typeof QuoteResponse> {
  return {
    id: quote.id,
    premium: { currency: 'USD', amount: centsToMajorString(quote.premiumCents) },
    covered: { currency: 'USD', amount: centsToMajorString(quote.cartValueCents) },
    payment_responsible: { type: 'customer' },
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
      return { status: 201, body: toQuoteResponse(quote) };
    },
  });
