// Step 1 of the integration: price protection for the current cart (README, Concepts, "Pricing").
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string } from './common.js';
import { keyRoute } from './policy.js';
import { pickErrors } from './errors.js';
import { Currency, QuoteAmount } from './money.js';

const c = initContract();

export const QuoteRequest = extendApi(
  z.object({
    cart: z.object({
      covered: z.object({
        amount: QuoteAmount.describe('Insurable cart value in major units, excluding digital and non-shippable items.'),
        currency: Currency.optional().describe('ISO 4217; USD only. Default USD.'),
      }).describe('The value protection covers.'),
      cart_ref: string(255).optional().describe("Caller's cart identifier, echoed back."),
      cart_items: z
        .array(z.record(z.unknown()), { invalid_type_error: 'must be an array of objects' })
        .max(500, 'must have at most 500 items')
        .optional()
        .describe('Recorded for dispute resolution only; never re-summed: cart.covered.amount is authoritative.'),
    }).describe('The cart to price.'),
    merchant_id: string(255)
      .optional()
      .describe("Redundant with the key. If sent and it names another store (by id or slug), the answer is 404."),
  }),
  {
    title: 'QuoteRequest',
    example: { cart: { covered: { amount: '125.00', currency: 'USD' }, cart_ref: 'cart_8812' } },
  },
);

export const QuoteResponse = extendApi(
  z.object({
    id: z.string().describe('Quote id (UUID; test-key quotes start with test_). Pass it later as quote_id.'),
    premium: z
      .object({
        currency: z.literal('USD').describe('Always USD.'),
        amount: z.string().describe('Premium in major units, e.g. "1.88".'),
      })
      .describe('What protection costs the shopper: show it at checkout.'),
    covered: z
      .object({
        currency: z.literal('USD').describe('Always USD.'),
        amount: z.string().describe('Major units with two decimals, e.g. "125.00".'),
      })
      .describe('The covered amount the premium was priced on.'),
    payment_responsible: z.object({
      type: z
        .enum(['customer', 'paid_by_customer'])
        .describe('Who pays the premium: customer. Stores with client_profile route are answered paid_by_customer, Route\'s word for it.'),
      ToggleState: z.boolean().optional().describe('Stores with client_profile route only: true, the protection checkbox starts ticked.'),
    }).describe('Who pays the premium.'),
    cart_ref: z.string().nullable().describe('The cart_ref sent, or null.'),
    created_at: DateTime.describe('When the quote was issued.'),
    expires_at: DateTime.describe('24 hours after issue; an order referencing an expired quote is priced from the configured rate.'),
  }),
  {
    title: 'QuoteResponse',
    example: {
      id: '7d0f9b8e-4a53-4f0e-9b2e-2f1c5f3b8a11',
      premium: { currency: 'USD', amount: '1.88' },
      covered: { currency: 'USD', amount: '125.00' },
      payment_responsible: { type: 'customer' },
      cart_ref: 'cart_8812',
      created_at: '2026-11-22T10:00:00.000Z',
      expires_at: '2026-11-23T10:00:00.000Z',
    },
  },
);

export const quotesContract = c.router({
  create: {
    method: 'POST',
    path: '/v2/quotes',
    body: QuoteRequest,
    responses: { 201: QuoteResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
    metadata: keyRoute('quotes', 'simulate'),
    summary: 'Create a quote',
    description:
      'Prices protection for the current cart so the premium can be shown to the shopper. Optional: without a quote ' +
      "the order is priced from the store's configured rate. A quote is valid for 24 hours. With a test key the quote " +
      'is computed but not stored.',
  },
});
