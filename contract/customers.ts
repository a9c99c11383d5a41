// A shopper's personal data, by email (README, "Personal data"): erase it from every order of the
// store (GDPR art. 17, CCPA deletion), or answer all of it (GDPR art. 15, CCPA access). The same
// shapes answer the platform's customer.redact and customer.data_request messages.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { CLAIM_REASONS, CLAIM_STATUSES } from './claims.js';
import { DateTime, string, text } from './common.js';
import { pickErrors } from './errors.js';
import { keyRoute } from './policy.js';

const c = initContract();

/** Loose on purpose: it must find any email an order was given, whichever door it came through. */
export const CustomerEmail = text(254, "The shopper's email as any of their orders gave it. Matched after trimming spaces, NFKC and lower case.");

export const CustomerRequest = extendApi(z.object({ email: CustomerEmail }), {
  title: 'CustomerRequest',
  example: { email: 'ada@example.com' },
});

export const WithheldOrder = z.object({
  source_order_id: z.string().describe('The order kept as it was.'),
  reason: z.literal('open_claim').describe('A claim on the order is open and needs the contact (GDPR art. 17(3)(e)).'),
});

export const CustomerRedaction = extendApi(
  z.object({
    object: z.literal('customer_redaction'),
    id: z.string().describe('The privacy request recorded for it.'),
    redacted_orders: z.array(z.string()).describe('source_order_id of every order erased by this request.'),
    withheld_orders: z
      .array(WithheldOrder)
      .describe('Orders not erased yet: each is erased as soon as its claims are resolved, without asking again.'),
  }),
  {
    title: 'CustomerRedaction',
    example: { object: 'customer_redaction', id: '4f0c2a54-92a4-4a53-9c55-0f1e6b2a7d10', redacted_orders: ['wc-5001', 'wc-5002'], withheld_orders: [] },
  },
);

const nullableText = (description: string) => z.string().nullable().describe(description);

/** An address as the order holds it (stored addresses have exactly these keys). */
const ExportedAddress = z
  .object({
    street_address1: z.string().optional(),
    street_address2: z.string().nullable().optional(),
    city: z.string().optional(),
    province: z.string().optional(),
    zip: z.string().optional(),
    country_code: z.string().optional(),
  });

export const CustomerOrderData = z.object({
  source_order_id: z.string(),
  source_order_number: z.string(),
  order_number: z.string().describe("The service's number for the order."),
  created_on: DateTime,
  customer: z.object({
    first_name: nullableText('First name.'),
    last_name: nullableText('Last name.'),
    email: nullableText('Email.'),
    phone: nullableText('Phone.'),
  }),
  shipping_address: ExportedAddress.nullable(),
  billing_address: ExportedAddress.nullable(),
  line_items: z
    .array(
      z.object({
        source_id: z.string(),
        name: z.string(),
        quantity: z.number().int(),
        image_url: nullableText('Image URL, which can show what the shopper bought.'),
      }),
    )
    .describe('What the shopper bought.'),
  claims: z.array(
    z.object({
      id: z.string(),
      reason: z.enum(CLAIM_REASONS),
      status: z.enum(CLAIM_STATUSES),
      created_on: DateTime,
      description: nullableText("The shopper's account of what happened."),
      notes: z
        .array(z.object({ status: z.enum(CLAIM_STATUSES), note: z.string(), created_at: DateTime }))
        .describe('The notes written on its status changes.'),
      photo_urls: z
        .array(z.string())
        .describe("The shopper's photos: download each with the store's key (GET, a JPEG) to hand them over."),
    }),
  ),
  refund_notes: z.array(z.object({ refund_id: z.string(), note: z.string() })).describe('Free-text notes of its refunds.'),
  quote_cart_items: z.array(z.record(z.unknown())).nullable().describe('The cart lines its quote was sent, as sent.'),
});

export const CustomerDataExport = extendApi(
  z.object({
    object: z.literal('customer_data'),
    id: z.string().describe('The privacy request recorded for it.'),
    generated_at: DateTime,
    orders: z.array(CustomerOrderData).describe('Every order of the store holding personal data for the email, oldest first.'),
  }),
  {
    title: 'CustomerDataExport',
    description:
      'Every piece of personal data the service holds for the email in this store. Stored events (kept 30 days) hold ' +
      'copies of these same orders and claims, and are erased with them.',
    example: {
      object: 'customer_data',
      id: '9a3e1f0c-2b4d-4e6f-8a1c-3d5e7f9b1a2c',
      generated_at: '2026-11-23T12:00:00.000Z',
      orders: [
        {
          source_order_id: 'wc-5001',
          source_order_number: '#5001',
          order_number: 'OP-1042',
          created_on: '2026-11-20T10:00:00.000Z',
          customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: null },
          shipping_address: { street_address1: '12 St James Sq', city: 'London', zip: 'SW1Y 4JH', country_code: 'GB' },
          billing_address: null,
          line_items: [{ source_id: 'l1', name: 'Desk organiser', quantity: 2, image_url: null }],
          claims: [],
          refund_notes: [],
          quote_cart_items: null,
        },
      ],
    },
  },
);

export const customersContract = c.router({
  redact: {
    method: 'POST',
    path: '/v2/customers/redact',
    body: CustomerRequest,
    responses: { 200: CustomerRedaction, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: "Erase a shopper's personal data",
    description:
      'Erases the personal data of every order of the store whose email matches (GDPR art. 17, CCPA), each as ' +
      '`POST /v2/orders/{source_order_id}/redact` does. The match is on the normalised email (spaces trimmed, NFKC, lower ' +
      'case) through a keyed hash, never a scan. An order with an open claim is withheld (GDPR art. 17(3)(e)) and erased ' +
      'automatically once its claims are resolved. An email with no order answers empty lists. Test keys answer 404.',
  },
  dataRequest: {
    method: 'POST',
    path: '/v2/customers/data_request',
    body: CustomerRequest,
    responses: { 200: CustomerDataExport, ...pickErrors(400, 401, 403, 404, 413, 429, 500) },
    metadata: { ...keyRoute('other', 'not_found'), answerIsPersonalData: true },
    summary: "Export a shopper's personal data",
    description:
      'Answers every piece of personal data the store holds for the email, as JSON (GDPR art. 15, CCPA access), matched ' +
      'like the erasure. The answer is never stored, so this route takes no Idempotency-Key; it only reads. Test keys ' +
      'answer 404.',
  },
});
