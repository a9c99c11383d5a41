// Schemas shared by several resources.
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

export const text = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/**
 * Whether an instant falls in the years 0001 to 9999 in UTC: what ISO 8601's four-digit years can
 * write and PostgreSQL can store (it has no year 0). Every date the service takes is held to it.
 */
export function isStorableInstant(instant: Date): boolean {
  const year = instant.getUTCFullYear();
  return !Number.isNaN(year) && year >= 1 && year <= 9999;
}

export const DateTime = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T10:00:00Z' })
  .refine((value) => isStorableInstant(new Date(value)), 'must fall between the years 0001 and 9999 in UTC');

export const Address = extendApi(
  z.object({
    street_address1: text(200),
    street_address2: z.string().max(200, 'must be at most 200 characters').nullable().optional(),
    city: text(100),
    province: z.string().max(100, 'must be at most 100 characters').optional(),
    zip: z.string().max(20, 'must be at most 20 characters').optional(),
    country_code: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US'),
  }),
  {
    title: 'Address',
    description: 'A postal address. street_address1, city and country_code are required.',
    example: {
      street_address1: '1600 Amphitheatre Pkwy',
      street_address2: null,
      city: 'Mountain View',
      province: 'CA',
      zip: '94043',
      country_code: 'US',
    },
  },
);
export type Address = z.infer<typeof Address>;

/** Every route that takes a key: the `token` header or `Authorization: Bearer`. */
export const keyAuthenticated = { auth: 'api_key' } as const;
/** The inbound webhook: signed with the platform's shared secret, no API key. */
export const signatureAuthenticated = { auth: 'webhook_signature' } as const;
/** The EasyPost tracking webhook: HMAC of the raw body with the EasyPost webhook secret. */
export const easyPostSignatureAuthenticated = { auth: 'easypost_signature' } as const;
export type RouteAuth =
  | (typeof keyAuthenticated)['auth']
  | (typeof signatureAuthenticated)['auth']
  | (typeof easyPostSignatureAuthenticated)['auth'];
