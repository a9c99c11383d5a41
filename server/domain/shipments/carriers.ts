// Carrier slugs, courier_id aliases, and carrier detection from the shape of a tracking number
// (docs/carriers.md). Pure functions: the formats are data in carrier-formats.ts; this file holds the
// check-digit algorithms (once each, by the names jkeen/tracking_number_data uses) and the rule that
// picks one format when several match.
import { CARRIER_SLUGS, type CarrierSlug } from '../../../contract/carriers.js';
import { CARRIER_FORMATS, type CarrierFormat } from './carrier-formats.js';

// The slugs and isCarrierSlug come from the contract's carrier table (contract/carriers.ts, which also
// names each carrier), re-exported here for the domain's importers.
export { CARRIER_SLUGS, isCarrierSlug, type CarrierSlug } from '../../../contract/carriers.js';

// ---------------------------------------------------------------------------------------------
// courier_id aliases
// ---------------------------------------------------------------------------------------------

/**
 * Names merchants and platforms send, per slug. Matching compares "compact" keys (lower-case, only
 * a-z0-9), so "U.S.P.S.", "canada-post" and "On Trac" need no entries of their own.
 *
 * After the plain names come the codes four outside tools use for the carrier, because platform
 * plugins pass those codes through as courier_id unchanged (the Route WooCommerce plugin, for one,
 * sends the Shipment Tracking provider lower-cased and the WooCommerce Shipping label's carrier id):
 * - WooCommerce Shipment Tracking: its provider names (up to 1.x stored as sanitize_title slugs such
 *   as "dhl-us", from 2.x as the names, e.g. "DHL US"; both give the same compact key);
 * - ShipStation carrierCode values (the ShipStation/ShipEngine API);
 * - AfterShip courier slugs;
 * - EasyPost carrier strings.
 * A code is listed only when it names the carrier itself. Left out on purpose: codes for another
 * company or network (ups-freight, now TForce Freight; dhl-global-forwarding; FedExCrossBorder;
 * UPSIparcel), for reference-number tracking (ups-reference), and for label services that sell
 * several carriers (amazon_buy_shipping, AmazonMws, globalpost).
 */
export const CARRIER_ALIASES: Readonly<Record<CarrierSlug, readonly string[]>> = {
  ups: [
    'UPS', 'United Parcel Service', 'UPS Ground', 'UPS Express', 'UPS Next Day Air', 'UPS 2nd Day Air',
    'UPS SurePost', 'UPS Mail Innovations', 'UPS Worldwide',
    // WooCommerce Shipment Tracking
    'UPS Germany', 'UPS.se', 'UPS Netherlands',
    // ShipStation: UPS bought through ShipStation's own account
    'ups_walleted',
    // AfterShip
    'ups-api', 'ups-mi',
    // EasyPost: UPS bought through EasyPost's own account
    'UPSDAP',
  ],
  usps: [
    'USPS', 'United States Postal Service', 'US Postal Service', 'U.S. Mail', 'USPS Priority Mail',
    'USPS First Class', 'USPS Ground Advantage', 'USPS Priority Mail Express',
    // ShipStation: USPS postage bought through Stamps.com or Endicia
    'stamps_com', 'endicia',
    // AfterShip (usps-iv-api: USPS Informed Visibility)
    'usps-api', 'usps-iv-api',
  ],
  fedex: [
    'FedEx', 'Federal Express', 'FedEx Ground', 'FedEx Express', 'FedEx Home Delivery', 'FedEx SmartPost',
    'FedEx Ground Economy', 'FedEx International',
    // WooCommerce Shipment Tracking
    'Fedex Sameday',
    // ShipStation (fedex_walleted: FedEx bought through ShipStation's own account)
    'fedex_walleted', 'fedex_uk',
    // AfterShip (fedex-fims: FedEx International MailService)
    'fedex-api', 'fedex-freight', 'fedex-fims',
    // EasyPost (FedExDefault: FedEx bought through EasyPost's own account)
    'FedExDefault', 'FedExSameDayCity',
  ],
  dhl: [
    'DHL', 'DHL Express', 'DHL eCommerce', 'DHL eCommerce Solutions', 'DHL Global Mail', 'DHL Parcel',
    // WooCommerce Shipment Tracking ("Deutsche Post DHL" and "DHL Intraship (DE)" are DHL Paket Germany)
    'DHL US', 'dhl.at', 'DHL.cz', 'DHL.se', 'DHL Intraship (DE)', 'Deutsche Post DHL', 'DHL Parcel UK',
    // WooCommerce Shipping label carrier ids, as the Route plugin forwards them
    'dhlecommerceasia',
    // ShipStation
    'dhl_express_worldwide', 'dhl_express_uk', 'dhl_express_canada', 'dhl_express_australia',
    // AfterShip ("dhl-global-mail" is DHL eCommerce US; "dhl-pieceid" a DHL Express piece id)
    'dhl-api', 'dhl-pieceid', 'dhl-global-mail-api', 'dhl-global-mail-asia', 'dhl-global-mail-asia-api',
    'dhl-germany', 'dhl-benelux', 'dhl-nl', 'dhl-es', 'dhl-poland', 'dhl-hk', 'dhlparcel-nl', 'dhlparcel-es',
    // EasyPost (DhlEcs: DHL eCommerce Solutions)
    'DhlEcs', 'DHLPaket',
  ],
  ontrac: [
    'OnTrac',
    // AfterShip
    'ontrac-api',
  ],
  lasership: [
    'LaserShip',
    // AfterShip
    'lasership-api',
    // EasyPost
    'LaserShipV2',
  ],
  amazon: [
    'Amazon', 'Amazon Logistics', 'Amazon Shipping', 'AMZL',
    // ShipStation
    'amazon_shipping_us',
    // AfterShip
    'amazon-logistics-uk', 'amazon-uk-api',
  ],
  canada_post: ['Canada Post', 'Postes Canada'],
  purolator: [
    'Purolator',
    // ShipStation
    'purolator_ca',
    // AfterShip
    'purolator-api', 'purolator-international',
  ],
  s10: ['S10', 'UPU S10', 'UPU'],
  dpd: [
    'DPD', 'DPD Group', 'DPD UK', 'DPD Local',
    // WooCommerce Shipment Tracking ("InterLink": Interlink Express, DPD Local's former name)
    'DPD.at', 'DPD.cz', 'DPD.de', 'DPD.ie', 'DPD.NL', 'DPD.PL', 'DPD Romania', 'DPD.co.uk', 'InterLink',
    // AfterShip
    'dpd-api', 'dpd-ireland', 'dpd-poland', 'dpd-ro', 'dpd-prt', 'dpd-hungary', 'dpd-ru', 'dpd-hk',
    'interlink-express',
  ],
  canpar: ['Canpar', 'Canpar Express'],
  speedee: ['Spee-Dee', 'Spee-Dee Delivery'],
  yodel: [
    'Yodel',
    // AfterShip
    'yodel-api', 'yodel-international', 'yodeldirect',
  ],
  landmark: ['Landmark', 'Landmark Global'],
  old_dominion: ['Old Dominion', 'Old Dominion Freight Line', 'ODFL'],
  yunexpress: ['YunExpress', 'Yun Express'],
  gofo: ['GOFO', 'GOFO Express'],
};

function compactKey(value: string): string {
  // NFKD then dropping everything but a-z0-9 also drops accents, so "Postes Canadá" still matches.
  return value.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]/g, '');
}

const ALIAS_INDEX: ReadonlyMap<string, CarrierSlug> = (() => {
  const index = new Map<string, CarrierSlug>();
  for (const slug of CARRIER_SLUGS) {
    for (const name of [slug, ...CARRIER_ALIASES[slug]]) {
      const key = compactKey(name);
      const taken = index.get(key);
      // Two slugs claiming one name would make the answer depend on list order.
      if (taken !== undefined && taken !== slug) throw new Error(`alias "${name}" names both ${taken} and ${slug}`);
      index.set(key, slug);
    }
  }
  return index;
})();

/** A courier_id as a merchant sent it, as a slug; null when it names no carrier we know. */
export function normalizeCourierId(input: string): CarrierSlug | null {
  const key = compactKey(input);
  if (key === '') return null;
  return ALIAS_INDEX.get(key) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Check-digit algorithms (names and parameters as in tracking_number_data's validation.checksum)
// ---------------------------------------------------------------------------------------------

export type ChecksumSpec =
  /** Multiplies characters at even / odd 0-based positions from the left; check = 10 - sum mod 10. */
  | { name: 'mod10'; evensMultiplier: number; oddsMultiplier: number }
  /** The serial read as one integer, mod 7. */
  | { name: 'mod7' }
  /** UPU S10: weighted sum mod 11, remainder 1 gives 0, remainder 0 gives 5, else 11 - remainder. */
  | { name: 's10'; weightings: readonly number[]; modulo: number }
  | { name: 'luhn' }
  /** ISO/IEC 7064 MOD 37,36 (DPD): the check is a character of 0-9A-Z. */
  | { name: 'mod_37_36' }
  | { name: 'sum_product_with_weightings_and_modulo'; weightings: readonly number[]; modulo1: number; modulo2: number };

export type ChecksumName = ChecksumSpec['name'];

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function digitsOf(serial: string): number[] | null {
  if (!/^[0-9]+$/.test(serial)) return null;
  return [...serial].map(Number);
}

/** UPS puts letters in its serials; the data maps them as (char code - 3) mod 10 (A=2, B=3 ... J=1 ...). */
function mod10Value(char: string): number {
  return /[0-9]/.test(char) ? Number(char) : (char.charCodeAt(0) - 3) % 10;
}

function tenComplement(total: number): number {
  return (10 - (total % 10)) % 10;
}

/**
 * The check character the algorithm gives for a serial (already prefixed as the format says), or null
 * when the serial holds characters the algorithm cannot read.
 */
export function computeCheckDigit(spec: ChecksumSpec, serial: string): string | null {
  if (serial === '') return null;
  switch (spec.name) {
    case 'mod10': {
      if (!/^[0-9A-Z]+$/.test(serial)) return null;
      let total = 0;
      [...serial].forEach((char, index) => {
        total += mod10Value(char) * (index % 2 === 0 ? spec.evensMultiplier : spec.oddsMultiplier);
      });
      return String(tenComplement(total));
    }
    case 'mod7': {
      if (digitsOf(serial) === null) return null;
      // Serials run past 2^53; BigInt keeps the remainder exact.
      return String(BigInt(serial) % 7n);
    }
    case 's10': {
      const digits = digitsOf(serial);
      if (digits === null || digits.length !== spec.weightings.length) return null;
      const remainder = digits.reduce((sum, digit, i) => sum + digit * (spec.weightings[i] ?? 0), 0) % spec.modulo;
      if (remainder === 1) return '0';
      if (remainder === 0) return '5';
      return String(spec.modulo - remainder);
    }
    case 'luhn': {
      const digits = digitsOf(serial);
      if (digits === null) return null;
      // The rightmost serial digit sits next to the check digit, so it is the first one doubled.
      let total = 0;
      digits.reverse().forEach((digit, index) => {
        const value = index % 2 === 0 ? digit * 2 : digit;
        total += value > 9 ? value - 9 : value;
      });
      return String(tenComplement(total));
    }
    case 'mod_37_36': {
      if (!/^[0-9A-Z]+$/.test(serial)) return null;
      const modulo = 36;
      let running = modulo;
      for (const char of serial) {
        running += BASE36.indexOf(char);
        if (running > modulo) running -= modulo;
        running *= 2;
        if (running > modulo) running -= modulo + 1;
      }
      const value = (modulo + 1 - running) % modulo;
      return BASE36.charAt(value);
    }
    case 'sum_product_with_weightings_and_modulo': {
      const digits = digitsOf(serial);
      if (digits === null || digits.length > spec.weightings.length) return null;
      const total = digits.reduce((sum, digit, i) => sum + digit * (spec.weightings[i] ?? 0), 0);
      return String((total % spec.modulo1) % spec.modulo2);
    }
  }
}

/**
 * Whether the printed check character is the computed one. The data's reference code reads a letter
 * check digit as 0 (Ruby's to_i); here a letter only passes where the algorithm yields letters (mod 37,36).
 */
export function checkDigitValid(spec: ChecksumSpec, serial: string, checkDigit: string): boolean {
  const expected = computeCheckDigit(spec, serial);
  return expected !== null && expected === checkDigit;
}

// ---------------------------------------------------------------------------------------------
// Detection
// ---------------------------------------------------------------------------------------------

export interface DetectedFormat {
  slug: CarrierSlug;
  /** Format id, as in the data (e.g. "fedex_12", "usps_impb_c"). */
  format: string;
  /** True when the format has a check digit and it validated; false for formats without one. */
  checkDigitVerified: boolean;
}

type FormatVerdict = 'verified' | 'unchecked' | 'rejected';

function judge(format: CarrierFormat, groups: Readonly<Record<string, string | undefined>>): FormatVerdict {
  if (format.groupIn !== undefined) {
    const value = groups[format.groupIn.group];
    if (value === undefined || !format.groupIn.values.has(value)) return 'rejected';
  }
  if (format.checksum === null) return 'unchecked';
  let serial = groups.SerialNumber;
  const check = groups.CheckDigit;
  if (serial === undefined || check === undefined) return 'rejected';
  if (format.prependIf !== undefined && format.prependIf.when.test(serial)) serial = format.prependIf.content + serial;
  return checkDigitValid(format.checksum, serial, check) ? 'verified' : 'rejected';
}

function slugFor(format: CarrierFormat, groups: Readonly<Record<string, string | undefined>>): CarrierSlug {
  if (format.slugByGroup === undefined) return format.slug;
  const value = groups[format.slugByGroup.group];
  return (value !== undefined ? format.slugByGroup.slugs[value] : undefined) ?? format.slug;
}

/**
 * Every format the number fits whose check digit (if any) validates, best first: formats whose check
 * digit validated before formats without one, then by the table's precedence (lower first).
 */
export function matchCarrierFormats(
  trackingNumber: string,
  formats: readonly CarrierFormat[] = CARRIER_FORMATS,
): DetectedFormat[] {
  if (!/^[A-Z0-9]+$/.test(trackingNumber)) return [];
  const found: { detected: DetectedFormat; precedence: number }[] = [];
  for (const format of formats) {
    const match = format.pattern.exec(trackingNumber);
    if (match === null) continue;
    const groups = match.groups ?? {};
    const verdict = judge(format, groups);
    if (verdict === 'rejected') continue;
    found.push({
      detected: { slug: slugFor(format, groups), format: format.format, checkDigitVerified: verdict === 'verified' },
      precedence: format.precedence,
    });
  }
  found.sort(
    (a, b) =>
      Number(b.detected.checkDigitVerified) - Number(a.detected.checkDigitVerified) || a.precedence - b.precedence,
  );
  return found.map((entry) => entry.detected);
}

/** The format the number is read as, or null when none fits. */
export function detectCarrierFormat(trackingNumber: string): DetectedFormat | null {
  return matchCarrierFormats(trackingNumber)[0] ?? null;
}

/**
 * The carrier of a normalised tracking number (spaces and dashes stripped, upper-cased, A-Z0-9 only),
 * or null when no format fits; the caller then stores courier "unknown" and does not poll it.
 */
export function detectCarrier(trackingNumber: string): CarrierSlug | null {
  return detectCarrierFormat(trackingNumber)?.slug ?? null;
}
