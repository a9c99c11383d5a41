// Address deliverability verification (README, Address verification). US addresses only; no side effects.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { string } from './common.js';
import { keyRoute } from './policy.js';
import { pickErrors } from './errors.js';

const c = initContract();

const AddressToVerify = extendApi(
  z.object({
    street_address1: string(200, z.string(), { description: 'First street line: number and street. Required.' }).optional(),
    street_address2: string(200, z.string(), { description: 'Second street line: apartment, suite, unit.' }).nullable().optional(),
    city: string(100, z.string(), { description: 'City; required unless zip is sent.' }).nullable().optional(),
    province: string(100).nullable().optional().describe('State name or two-letter abbreviation.'),
    zip: string(20, z.string(), { description: 'ZIP or ZIP+4; without it, city and province are required.' }).nullable().optional(),
    country_code: string(60).optional().describe('US, or omitted. Any other value answers unknown without checking.'),
  }),
  { title: 'AddressToVerify' },
);

export const AddressVerificationRequest = extendApi(
  z
    .object({ address: AddressToVerify.optional(), shipping_details: AddressToVerify.optional() })
    .superRefine((body, ctx) => {
      const key = body.address ? 'address' : 'shipping_details';
      const address = body.address ?? body.shipping_details;
      if (!address) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['address'], message: 'is required (or send shipping_details)' });
        return;
      }
      const missing = (value: string | null | undefined) => value === undefined || value === null || value.trim() === '';
      if (missing(address.street_address1)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key, 'street_address1'], message: 'is required' });
      }
      if (missing(address.zip)) {
        if (missing(address.city)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key, 'city'], message: 'is required unless zip is sent' });
        if (missing(address.province)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key, 'province'], message: 'is required unless zip is sent' });
      }
    }),
  {
    title: 'AddressVerificationRequest',
    description:
      'An address under `address` (or `shipping_details`): street_address1, and a zip or both city and province.',
    // The refinement above, as far as a schema can say it: one of the two keys.
    anyOf: [{ required: ['address'] }, { required: ['shipping_details'] }],
    example: { address: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043' } } },
);

export const AddressVerificationResponse = extendApi(
  z.object({
    verdict: z
      .enum(['deliverable', 'corrected', 'unit_required', 'undeliverable', 'unknown'])
      .describe(
        'deliverable and corrected: ship (to `address`); unit_required and undeliverable: hold; unknown: the check could not be made, ship.',
      ),
    deliverable: z.boolean().nullable().describe('Null if and only if verdict is unknown. Test it with === false, not by truthiness.'),
    reason: z.string().describe('Stable code, e.g. secondary_missing.'),
    message: z.string().describe('Plain words; safe to show a support agent.'),
    address: z
      .object({
        street_address1: z.string().describe('First street line, standardised.'),
        street_address2: z.string().nullable().describe('Second street line, or null.'),
        city: z.string(),
        province: z.string().describe('Two-letter state code.'),
        zip: z.string().describe('Five-digit ZIP.'),
        zip4: z.string().nullable().describe('The ZIP+4 add-on, or null.'),
        country_code: z.literal('US'),
      })
      .nullable()
      .describe('The address standardised, to ship to; null when it could not be confirmed.'),
    changes: z
      .array(z.enum(['street', 'city', 'state', 'zip', 'secondary']))
      .describe('What standardisation changed from the address sent; empty when nothing did.'),
    flags: z
      .array(
        z.enum(['vacant', 'mail_receiving_agency', 'no_mail_service', 'no_street_delivery', 'po_box', 'military', 'general_delivery']),
      )
      .describe('Facts about the delivery point worth knowing, e.g. po_box.'),
  }),
  { title: 'AddressVerificationResponse' },
);

export const addressesContract = c.router({
  verify: {
    method: 'POST',
    path: '/v2/addresses/verify',
    body: AddressVerificationRequest,
    responses: { 200: AddressVerificationResponse, ...pickErrors(400, 401, 403, 409, 413, 422, 429, 500) },
    metadata: keyRoute('addresses', 'simulate'),
    summary: 'Verify an address',
    description:
      'Checks whether a US address can be delivered to. No side effects: it holds no order, stops no shipment, ' +
      'changes no premium and does not store the address. Send the address as `address` (or `shipping_details`); ' +
      'names and phone numbers are ignored. verdict: deliverable (ship), corrected (ship to `address`; `changes` ' +
      'says what moved), unit_required (hold: ask for the unit), undeliverable (hold; `reason` and `message` say ' +
      'why), unknown (ship: the check could not be made). Test `deliverable` with === false, never by truthiness, ' +
      'and never hold an order on unknown nor on any non-200 answer. Identical addresses are looked up once per 24 ' +
      'hours. Test keys answer locally: any well-formed address is deliverable, ZIP 00000 undeliverable.',
  },
});
