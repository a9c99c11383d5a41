// The carriers by slug and by name: the one table the server (detection, the claim page, the
// console's lists), the shipment's documentation and the console's carrier picker read.
// docs/carriers.md's slug table names each carrier with exactly these words (test/carrier-names.test.ts).

/** Each documented courier slug (lower-case) with the name people read, in the documentation's order. */
export const CARRIERS = [
  { slug: 'ups', name: 'UPS' },
  { slug: 'usps', name: 'USPS' },
  { slug: 'fedex', name: 'FedEx' },
  { slug: 'dhl', name: 'DHL' },
  { slug: 'ontrac', name: 'OnTrac' },
  { slug: 'lasership', name: 'LaserShip' },
  { slug: 'amazon', name: 'Amazon Logistics' },
  { slug: 'canada_post', name: 'Canada Post' },
  { slug: 'purolator', name: 'Purolator' },
  { slug: 's10', name: 'Postal service (international)' },
  { slug: 'dpd', name: 'DPD' },
  { slug: 'canpar', name: 'Canpar' },
  { slug: 'speedee', name: 'Spee-Dee' },
  { slug: 'yodel', name: 'Yodel' },
  { slug: 'landmark', name: 'Landmark Global' },
  { slug: 'old_dominion', name: 'Old Dominion' },
  { slug: 'yunexpress', name: 'YunExpress' },
  { slug: 'gofo', name: 'GOFO' },
] as const;

export type CarrierSlug = (typeof CARRIERS)[number]['slug'];

/** A table's slugs, as a tuple of the same length and order. */
type SlugsOf<T extends readonly { slug: string }[]> = { readonly [K in keyof T]: T[K] extends { slug: infer S } ? S : never };

/** Documented courier slugs, lower-case, in the table's order. "unknown" is not one: it is what an undetectable number is stored with. */
export const CARRIER_SLUGS = CARRIERS.map((carrier) => carrier.slug) as unknown as SlugsOf<typeof CARRIERS>;

/** Each slug's name. */
export const CARRIER_NAMES: Readonly<Record<CarrierSlug, string>> = Object.fromEntries(CARRIERS.map((carrier) => [carrier.slug, carrier.name])) as Record<CarrierSlug, string>;

/**
 * The courier a documented sandbox number (docs/tracking.md) is registered with when no carrier is
 * named: the sandbox tracking provider plays its script whatever the carrier, so it is tracked.
 * Like "unknown", not a slug a merchant can send.
 */
export const SANDBOX_COURIER = 'sandbox';
/** A sandbox number's scans come from the sandbox provider, not from a carrier. */
export const SANDBOX_COURIER_NAME = 'Sandbox (test parcel)';
/** What a shipment whose carrier could not be told is called. */
export const UNKNOWN_CARRIER_NAME = 'Unknown carrier';

export function isCarrierSlug(value: string): value is CarrierSlug {
  return Object.hasOwn(CARRIER_NAMES, value);
}

/** A stored courier by name: a documented slug's name, the sandbox's, or "Unknown carrier". */
export const carrierName = (courier: string): string =>
  isCarrierSlug(courier) ? CARRIER_NAMES[courier] : courier === SANDBOX_COURIER ? SANDBOX_COURIER_NAME : UNKNOWN_CARRIER_NAME;
