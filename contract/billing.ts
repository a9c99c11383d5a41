// Billing statements (README, Concepts, "Billing"): what a store owes for one calendar month, read from
// the premium ledger. Every figure is derived from ledger entries in integer cents and formatted once.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { keyRoute } from './policy.js';
import { pickErrors } from './errors.js';
import { RestAmountOut } from './money.js';

const c = initContract();

/** A calendar month, e.g. 2026-11: years 0001 to 9999, like every date the service takes. */
export const BILLING_MONTH_PATTERN = /^(000[1-9]|00[1-9]\d|0[1-9]\d{2}|[1-9]\d{3})-(0[1-9]|1[0-2])$/;

export const BillingMonth = z
  .string({ required_error: 'is required', invalid_type_error: 'must be a month such as 2026-11' })
  .regex(BILLING_MONTH_PATTERN, 'must be a month as YYYY-MM from 0001-01 to 9999-12, e.g. 2026-11');

const count = z.number().int().min(0).describe('How many ledger entries.');

export const BillingCreditWeek = extendApi(
  z.object({
    week: z.string().regex(/^\d{4}-W\d{2}$/).describe('ISO 8601 week of the reversals, e.g. 2026-W46.'),
    starts_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe("The ISO week's Monday (UTC), e.g. 2026-11-09."),
    count,
    total: RestAmountOut.describe('Sum of the reversals of this week that fall inside the month, as a positive number.'),
  }),
  { title: 'BillingCreditWeek' },
);

export const BillingStatement = extendApi(
  z.object({
    merchant_id: z.string().describe('Store id.'),
    month: z.string().describe('The month, as requested (YYYY-MM, UTC).'),
    currency: z.literal('USD').describe('Always USD.'),
    premiums: z
      .object({ count, total: RestAmountOut.describe('Sum of the bookings, in major units.') })
      .describe('Bookings whose effective date (the order\'s source_created_on) falls in the month.'),
    repricings: z
      .object({ count, total: RestAmountOut.describe('Sum of the re-pricings, signed, in major units.') })
      .describe("The month's re-pricing entries (dated to the update), signed: a downward re-pricing is negative."),
    credits: z
      .object({
        count,
        total: RestAmountOut.describe('Sum of the reversals, as a positive number, in major units.'),
        weeks: z.array(BillingCreditWeek).describe('The reversals by ISO week, oldest first.'),
      })
      .describe(
        "The month's reversals (refunds, dated to the refund), total as a positive number, grouped by ISO week, " +
          'oldest first. A week that spans two months lists only its entries inside this month.',
      ),
    net_total: RestAmountOut.describe(
      'premiums.total + repricings.total - credits.total: exactly the sum of the month\'s ledger entries.',
    ),
    claims: z
      .object({
        filed: count.describe('Claims filed in the month.'),
        approved: count.describe('Claims approved in the month (by a person or a rule).'),
        denied: count.describe('Claims denied in the month.'),
        paid: count.describe('Claims paid in the month (by their payout date).'),
        paid_total: RestAmountOut.describe('What those payouts add up to, in major units.'),
      })
      .describe("The month's claims, each counted in the month its event happened (UTC)."),
    loss_ratio: z
      .number()
      .nullable()
      .describe('claims.paid_total / net_total, rounded to four decimals; null when net_total is zero or less.'),
  }),
  {
    title: 'BillingStatement',
    example: {
      merchant_id: '5a3c1e9e-2b7f-4d8e-9f0a-1c2d3e4f5a6b',
      month: '2026-11',
      currency: 'USD',
      premiums: { count: 3, total: 5.86 },
      repricings: { count: 2, total: -0.38 },
      credits: {
        count: 2,
        total: 0.45,
        weeks: [
          { week: '2026-W44', starts_on: '2026-10-26', count: 1, total: 0.25 },
          { week: '2026-W49', starts_on: '2026-11-30', count: 1, total: 0.2 },
        ],
      },
      net_total: 5.03,
      claims: { filed: 2, approved: 1, denied: 0, paid: 1, paid_total: 24.99 },
      loss_ratio: 4.9682,
    },
  },
);

export const billingContract = c.router({
  statements: {
    method: 'GET',
    path: '/v1/billing/statements',
    query: z.object({ month: BillingMonth }),
    responses: { 200: BillingStatement, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Monthly billing statement',
    description:
      "The store's premium statement for one calendar month (month=YYYY-MM, in UTC), read from the premium ledger. " +
      'An entry counts in the month its effective date falls in: a booking on the order\'s source_created_on, a ' +
      're-pricing on the date of the update, a reversal (a refund) on the date of the refund. premiums are the ' +
      'bookings; repricings the re-pricings, signed; credits the reversals, with their total as a positive number ' +
      'and grouped by the ISO 8601 week of their effective date, oldest week first (starts_on is the Monday; a week ' +
      'that spans two months lists only its entries inside this month). net_total = premiums.total + ' +
      'repricings.total - credits.total, which is exactly the sum of the month\'s ledger entries. Amounts are JSON ' +
      'numbers of major units with at most two decimals, summed in integer cents. A month with no entries, such as ' +
      'a future one, answers a statement of zeros. Test keys answer 404 (they never see live data).',
  },
});
