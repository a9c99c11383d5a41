// Tracking-number formats, one entry per format: the data behind detectCarrier (carriers.ts).
//
// Source: jkeen/tracking_number_data (MIT), couriers/*.json, written out by hand in TypeScript. Format ids,
// named groups, check-digit algorithms and their parameters are the data's. The patterns are anchored and
// drop the data's "\s*" because numbers arrive normalised (A-Z0-9 only). Where the v2.0.0 definition was
// not available to read, the entry was rebuilt from v2.0.0's test numbers and says so.
//
// Precedence (lower wins) only matters when a number fits several formats. A format whose check digit
// validated always beats a format without a check digit; precedence then decides, in this order:
//   10-39  formats with a literal prefix or letters in fixed places (1Z, TBA, LTN, S10, C/D + digits ...)
//   40-59  all-digit formats with a fixed leading application identifier (USPS 92-95, FedEx 96, ...)
//   60-79  all-digit formats told apart only by length and check digit; the more common carrier first
import type { CarrierSlug, ChecksumSpec } from './carriers.js';

export interface CarrierFormat {
  slug: CarrierSlug;
  /** The data's format id. */
  format: string;
  /** Lower wins among formats that fit the same number (see the header). Unique. */
  precedence: number;
  /** Anchored. Named groups: SerialNumber and CheckDigit where there is a checksum, others as the data has them. */
  pattern: RegExp;
  /** validation.checksum, or null for formats without a check digit. */
  checksum: ChecksumSpec | null;
  /** validation.serial_number_format.prepend_if: prefix the serial before checking it. */
  prependIf?: { when: RegExp; content: string };
  /** validation.additional.exists: the group's value must be listed, or the format does not fit. */
  groupIn?: { group: string; values: ReadonlySet<string> };
  /** A value of this group sends the number to another slug (an S10 item to its issuing postal operator). */
  slugByGroup?: { group: string; slugs: Readonly<Partial<Record<string, CarrierSlug>>> };
}

const UPS_MOD10: ChecksumSpec = { name: 'mod10', evensMultiplier: 1, oddsMultiplier: 2 };
/** USPS / GS1 style: 3 on every other digit counting from the check digit leftwards. */
const USPS_MOD10: ChecksumSpec = { name: 'mod10', evensMultiplier: 3, oddsMultiplier: 1 };
const FEDEX_GROUND_MOD10: ChecksumSpec = { name: 'mod10', evensMultiplier: 1, oddsMultiplier: 3 };
const FEDEX_MOD11_12: ChecksumSpec = {
  name: 'sum_product_with_weightings_and_modulo',
  weightings: [3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1],
  modulo1: 11,
  modulo2: 10,
};
const FEDEX_MOD11_13: ChecksumSpec = {
  name: 'sum_product_with_weightings_and_modulo',
  weightings: [1, 7, 3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1],
  modulo1: 11,
  modulo2: 10,
};
const S10_MOD11: ChecksumSpec = { name: 's10', weightings: [8, 6, 4, 2, 3, 5, 9, 7], modulo: 11 };

/** USPS IMpb may be scanned with its routing prefix: "420" + a 5- or 9-digit ZIP. */
const USPS_ROUTING = '(?:420(?<DestinationZip>[0-9]{5}(?:[0-9]{4})?))?';

/**
 * Country codes of s10.json's "Courier" lookup (UPU members with a postal operator). An S10 number with
 * a code outside this list does not fit the format ("RB123456785XX" is in the data's invalid list).
 */
export const S10_COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AF AL DZ AO AG AR AM AU AT AZ BS BH BD BB BY BE BZ BJ BT BO BA BW BR BN BG BF BI KH CM CA CV CF TD CL CN HK ' +
    'CO KM CG CR HR CU CY CZ CI KP CD DK DJ DM DO EC EG SV GQ ER EE ET FJ FI FR GA GM GE DE GH GB GR GD GT GN GW ' +
    'GY HT HN HU IS IN ID IR IQ IE IL IT JM JP JO KZ KE KI KR KW KG LA LV LB LS LR LY LI LT LU MG MW MY MV ML MT ' +
    'MR MU MX MD MC MN ME MA MZ MM NA NR NP NL NZ NI NE NG NO OM PK PA PG PY PE PH PL PT QA RO RU RW KN LC VC WS ' +
    'SM ST SA SN RS SC SL SG SK SI SB SO ZA SS ES LK SD SR SZ SE CH SY TJ TZ TH MK TL TG TO TT TN TR TM TV UG UA ' +
    'AE US UY UZ VU VA VE VN YE ZM ZW'
  ).split(' '),
);

/** S10 items are tracked by the postal operator that issued them, where we have a slug for it. */
export const S10_OPERATOR_SLUGS: Readonly<Partial<Record<string, CarrierSlug>>> = { US: 'usps', CA: 'canada_post' };

export const CARRIER_FORMATS: readonly CarrierFormat[] = [
  // --- literal prefixes and letters in fixed places ---------------------------------------------
  {
    slug: 'ups',
    format: 'ups',
    precedence: 10,
    pattern:
      /^1Z(?<SerialNumber>(?<ShipperId>[A-Z0-9]{6})(?<ServiceType>[A-Z0-9]{2})(?<PackageId>[A-Z0-9]{7}))(?<CheckDigit>[A-Z0-9])$/,
    checksum: UPS_MOD10,
  },
  {
    slug: 'amazon',
    format: 'amazon_logistics',
    precedence: 11,
    // v2.0.0 test numbers add TBC and TBM to TBA.
    pattern: /^TB[ACM](?<SerialNumber>[0-9]{12})$/,
    checksum: null,
  },
  {
    slug: 'lasership',
    format: 'lasership_1ls7_18',
    precedence: 12,
    // Printed "1LS7...-1"; normalising drops the dash and keeps the trailing 1.
    pattern: /^1LS7[12][0-9]{2}01[1-4](?<SerialNumber>[0-9]{6})1$/,
    checksum: null,
  },
  {
    slug: 'lasership',
    format: 'lasership_1ls7',
    precedence: 13,
    pattern: /^1LS7[12][0-9]{4}(?<SerialNumber>[0-9]{6})$/,
    checksum: null,
  },
  {
    slug: 'lasership',
    format: 'lasership_1lscx',
    precedence: 14,
    // Rebuilt from v2.0.0 test numbers ("1LSCXVE0058631Y").
    pattern: /^1LSCX(?<SerialNumber>[A-Z0-9]{10})$/,
    checksum: null,
  },
  {
    slug: 'yodel',
    format: 'yodel',
    precedence: 15,
    pattern: /^J?JD(?<SerialNumber>[0-9]{16})$/,
    checksum: null,
  },
  {
    slug: 'landmark',
    format: 'landmark_global',
    precedence: 16,
    pattern: /^LTN(?<SerialNumber>[0-9]{8})N1$/,
    checksum: null,
  },
  {
    slug: 'gofo',
    format: 'gofo_us',
    precedence: 17,
    pattern: /^GFUS(?<SerialNumber>[0-9]{14})$/,
    checksum: null,
  },
  {
    slug: 'yunexpress',
    format: 'yunexpress',
    precedence: 18,
    pattern: /^YT(?<SerialNumber>[0-9]{16})$/,
    checksum: null,
  },
  {
    slug: 'speedee',
    format: 'speedee',
    precedence: 19,
    pattern: /^SP(?<SerialNumber>[0-9]{18})$/,
    checksum: null,
  },
  {
    slug: 's10',
    format: 's10',
    precedence: 20,
    pattern: /^(?<ServiceType>[A-Z]{2})(?<SerialNumber>[0-9]{8})(?<CheckDigit>[0-9])(?<CountryCode>[A-Z]{2})$/,
    checksum: S10_MOD11,
    groupIn: { group: 'CountryCode', values: S10_COUNTRY_CODES },
    slugByGroup: { group: 'CountryCode', slugs: S10_OPERATOR_SLUGS },
  },
  {
    slug: 'ontrac',
    format: 'ontrac_c',
    precedence: 21,
    pattern: /^C(?<SerialNumber>[0-9]{13})(?<CheckDigit>[0-9])$/,
    checksum: UPS_MOD10,
    prependIf: { when: /^(?!4)/, content: '4' },
  },
  {
    slug: 'ontrac',
    format: 'ontrac_d',
    precedence: 22,
    // Rebuilt from v2.0.0 test numbers: like ontrac_c with a "5" prefixed (the only prefix they all pass with).
    pattern: /^D(?<SerialNumber>[0-9]{13})(?<CheckDigit>[0-9])$/,
    checksum: UPS_MOD10,
    prependIf: { when: /^(?!5)/, content: '5' },
  },
  {
    slug: 'canpar',
    format: 'canpar_22',
    precedence: 23,
    pattern: /^(?<SerialNumber>[CDKLSUXZ][0-9]{21})$/,
    checksum: null,
  },
  {
    slug: 'dhl',
    format: 'dhl_ecommerce',
    precedence: 24,
    // v2.0.0 test numbers carry letters after the first digit ("GM9E44608A27984866BA2D").
    pattern: /^(?:GM|LX|RX|UV|CN|SG|TH|IN|HK|MY)(?<SerialNumber>[0-9][0-9A-Z]{9,38})$/,
    checksum: null,
  },
  {
    slug: 'lasership',
    format: 'lasership_lx',
    precedence: 25,
    // Rebuilt from v2.0.0 test numbers (LX, LI, LA, LH, LE, LN; "LA97635036" is invalid).
    pattern: /^L[AEHINX](?<SerialNumber>[1-3][0-9]{7})$/,
    checksum: null,
  },
  {
    slug: 'purolator',
    format: 'purolator_alpha',
    precedence: 26,
    // Before dhl_express_piece_id: "JFV247545960" is Purolator's and fits both.
    pattern: /^(?<SerialNumber>[A-Z]{3}[0-9]{9})$/,
    checksum: null,
  },
  {
    slug: 'dhl',
    format: 'dhl_express_piece_id',
    precedence: 27,
    pattern: /^J[A-Z]{2,3}(?<SerialNumber>[0-9]{9,10})$/,
    checksum: null,
  },
  {
    slug: 'ups',
    format: 'ups_waybill',
    precedence: 28,
    // Rebuilt from v2.0.0 test numbers: service letter + 9 digits + UPS mod 10 check digit.
    pattern: /^(?<ServiceType>[AHJKTV])(?<SerialNumber>[0-9]{9})(?<CheckDigit>[0-9])$/,
    checksum: UPS_MOD10,
  },
  {
    slug: 'amazon',
    format: 'amazon_international',
    precedence: 29,
    // Rebuilt from v2.0.0 test numbers ("C1004444443" and "C1004444444" both valid: no check digit).
    pattern: /^[AFC](?<SerialNumber>[0-9]{10})$/,
    checksum: null,
  },

  // --- all digits, fixed leading identifier --------------------------------------------------------
  {
    slug: 'usps',
    format: 'usps_impb_c',
    precedence: 40,
    // IMpb with a commercial application identifier (92, 93, 95): 22- or 26-digit PIC.
    pattern: new RegExp(`^${USPS_ROUTING}(?<SerialNumber>9[235][0-9]{19}(?:[0-9]{4})?)(?<CheckDigit>[0-9])$`),
    checksum: USPS_MOD10,
  },
  {
    slug: 'usps',
    format: 'usps_impb_n',
    precedence: 41,
    // IMpb with application identifier 94.
    pattern: new RegExp(`^${USPS_ROUTING}(?<SerialNumber>94[0-9]{19}(?:[0-9]{4})?)(?<CheckDigit>[0-9])$`),
    checksum: USPS_MOD10,
  },
  {
    slug: 'usps',
    format: 'usps_legacy',
    precedence: 42,
    // Application identifier 91, printed or implied: a 20-digit number is checked with "91" in front.
    pattern: new RegExp(`^${USPS_ROUTING}(?<SerialNumber>91[0-9]{19}(?:[0-9]{4})?|[0-9]{19})(?<CheckDigit>[0-9])$`),
    checksum: USPS_MOD10,
    prependIf: { when: /^(?!91)/, content: '91' },
  },
  {
    slug: 'fedex',
    format: 'fedex_ground_96',
    precedence: 43,
    pattern:
      /^96(?<SCNC>[0-9]{2})(?<ServiceType>[0-9]{3})(?<SerialNumber>(?<ShipperId>[0-9]{7})(?<PackageId>[0-9]{7}))(?<CheckDigit>[0-9])$/,
    checksum: FEDEX_GROUND_MOD10,
  },
  {
    slug: 'fedex',
    format: 'fedex_ground_gsn',
    precedence: 44,
    pattern: /^96(?<SCNC>[0-9]{2})[0-9]{5}(?<GSN>[0-9]{10})[0-9](?<SerialNumber>[0-9]{13})(?<CheckDigit>[0-9])$/,
    checksum: FEDEX_MOD11_13,
  },
  {
    slug: 'fedex',
    format: 'fedex_34',
    precedence: 45,
    // v2.0.0 test numbers start 100, 102 and 119: a leading 1 is all they share.
    pattern: /^1[0-9]{14}(?<DestinationZip>[0-9]{5})(?<SerialNumber>[0-9]{13})(?<CheckDigit>[0-9])$/,
    checksum: FEDEX_MOD11_13,
  },
  {
    slug: 'fedex',
    format: 'fedex_astra_32',
    precedence: 46,
    // Rebuilt from v2.0.0 test numbers: a FedEx 12-digit tracking number sits at positions 17-28.
    pattern: /^3[0-9]{15}(?<SerialNumber>[0-9]{11})(?<CheckDigit>[0-9])[0-9]{4}$/,
    checksum: FEDEX_MOD11_12,
  },
  {
    slug: 'old_dominion',
    format: 'old_dominion',
    precedence: 47,
    // Before dhl_express (also 11 digits): the fixed prefix makes a chance match far less likely.
    // Prefixes rebuilt from v2.0.0 test numbers (072, 777, 778, 780; "79927398713" is invalid).
    pattern: /^(?<SerialNumber>(?:072|7[78][0-9])[0-9]{7})(?<CheckDigit>[0-9])$/,
    checksum: { name: 'luhn' },
  },
  {
    slug: 'old_dominion',
    format: 'old_dominion_guaranteed',
    precedence: 48,
    pattern: /^(?<SerialNumber>80[0-9]{8})(?<CheckDigit>[0-9])$/,
    checksum: { name: 'luhn' },
  },

  // --- all digits, told apart by length and check digit --------------------------------------------
  {
    slug: 'usps',
    format: 'usps_20',
    precedence: 60,
    pattern: /^(?<SerialNumber>(?<ServiceType>[0-9]{2})(?<ShipperId>[0-9]{9})(?<PackageId>[0-9]{8}))(?<CheckDigit>[0-9])$/,
    checksum: USPS_MOD10,
  },
  {
    slug: 'fedex',
    format: 'fedex_12',
    precedence: 62,
    pattern: /^(?<SerialNumber>[0-9]{11})(?<CheckDigit>[0-9])$/,
    checksum: FEDEX_MOD11_12,
  },
  {
    slug: 'purolator',
    format: 'purolator_numeric',
    precedence: 63,
    // After fedex_12: a 12-digit number passing both checks is read as FedEx, by far the commoner here.
    pattern: /^(?<SerialNumber>[0-5][0-9]{10})(?<CheckDigit>[0-9])$/,
    checksum: { name: 'luhn' },
  },
  {
    slug: 'fedex',
    format: 'fedex_ground',
    precedence: 64,
    pattern: /^(?<SerialNumber>[0-9]{14})(?<CheckDigit>[0-9])$/,
    checksum: FEDEX_GROUND_MOD10,
  },
  {
    slug: 'fedex',
    format: 'fedex_ground_sscc_18',
    precedence: 65,
    pattern: /^(?<ShippingContainerType>[0-9]{2})(?<SerialNumber>[0-9]{15})(?<CheckDigit>[0-9])$/,
    checksum: USPS_MOD10,
  },
  {
    slug: 'canada_post',
    format: 'canada_post',
    precedence: 66,
    pattern: /^(?<SerialNumber>(?<OriginId>[0-9]{7})[0-9]{8})(?<CheckDigit>[0-9])$/,
    checksum: USPS_MOD10,
  },
  {
    slug: 'dhl',
    format: 'dhl_express',
    precedence: 67,
    pattern: /^(?<SerialNumber>[0-9]{9,10})(?<CheckDigit>[0-9])$/,
    checksum: { name: 'mod7' },
  },
  {
    slug: 'dpd',
    format: 'dpd',
    precedence: 68,
    pattern:
      /^(?<SerialNumber>(?<DestinationZip>[0-9]{7})[0-9]{14}(?<ServiceType>[0-9]{3})(?<CountryCode>[0-9]{3}))(?<CheckDigit>[0-9A-Z])$/,
    checksum: { name: 'mod_37_36' },
  },
  {
    slug: 'dpd',
    format: 'dpd_14',
    precedence: 69,
    // Rebuilt from v2.0.0 test numbers: 14 digits and a MOD 37,36 check character, like dpd.
    pattern: /^(?<SerialNumber>[0-9]{14})(?<CheckDigit>[0-9A-Z])$/,
    checksum: { name: 'mod_37_36' },
  },
  {
    slug: 'dhl',
    format: 'dhl_ecommerce_14',
    precedence: 70,
    // Rebuilt from v2.0.0 test numbers; none of the data's algorithms fits all three, so no check digit.
    pattern: /^(?<SerialNumber>[0-9]{14})$/,
    checksum: null,
  },
];
