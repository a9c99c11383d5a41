// USPS Publication 28 ("Postal Addressing Standards") standardisation of a US address as sent:
// pure functions, no I/O. The word tables are data modules of their own: ./address-data.ts
// (street suffixes, directionals, unit designators, box and route forms) and ./us-states.ts (the
// state names and codes, which the Smarty adapter also reads, through stateCode). The street line
// is parsed in ./address-street-line.ts; this file cleans the text, chooses the primary line, and
// reads the city, state and ZIP. The verifiers
// (offline, USPS, Smarty) and the 24-hour lookup cache all start from standardizeAddress, so two
// spellings of the same address ("1600 Amphitheatre Parkway" and "1600 amphitheatre pkwy.") give
// the same answer.
//
// What it does, in Pub 28 terms:
//   - upper case, ASCII (accents dropped), punctuation removed, single spaces; a hyphen survives
//     only inside a house number ("12-34") or a unit id ("APT 4-B"), a slash only in a fraction
//     ("123 1/2 MAIN ST");
//   - the street line: primary number, predirectional, street name, suffix, postdirectional, with
//     the suffix abbreviated (Appendix C1) and directionals abbreviated only where they are pre- or
//     postdirectionals, not when they are the street name ("NORTH ST", "N ST NW");
//   - a secondary unit at the end of street_address1 moves to `secondary`; designators are
//     abbreviated (Appendix C2), "#" is used when no designator is given;
//   - PO Box, General Delivery, military (PSC/CMR/UNIT ... BOX), rural route (RR) and highway
//     contract (HC) lines in their standard forms;
//   - the state as its two-letter code (Appendix B), the ZIP split into ZIP and ZIP+4.
// It never corrects spelling or guesses a missing part, and keeps, cleaned, what it cannot place.
// One exception: when street_address1 holds no street (a firm or "care of" line) and
// street_address2 does, street_address2 is the street line and street_address1 is left out,
// unless it is a unit ("Apt 4"), which stays as the secondary.
import type { AddressInput } from './addresses.js';
import {
  looksLikeStreetLine,
  parseUnits,
  primaryLine,
  standardSecondaryLine,
  type AddressKind,
} from './address-street-line.js';
import { MILITARY_STATES, STATE_CODE_BY_NAME } from './us-states.js';

export type { AddressKind } from './address-street-line.js';

export interface StandardizedAddress {
  /** Primary line in USPS standard form, upper case: number, predirectional, name, suffix abbreviation, postdirectional, e.g. "1600 AMPHITHEATRE PKWY", "123 N MAIN ST SW", "PO BOX 123", "GENERAL DELIVERY", "PSC 1234 BOX 5678", "UNIT 2050 BOX 4190", "CMR 480 BOX 123". */
  street: string;
  /** Secondary unit in standard form, e.g. "APT 4B", "STE 100", "# 5"; null when none. A unit found at the end of street_address1 ("123 Main St Apt 4") moves here. */
  secondary: string | null;
  /** Upper case, single spaces, no punctuation; null when not sent. */
  city: string | null;
  /** Two-letter code from a name or code in any case ("California", "ca", "Calif." if you like) for the 50 states, DC, territories (PR, VI, GU, AS, MP) and military (AA, AE, AP); null when absent or unknown. */
  state: string | null;
  zip5: string | null;
  zip4: string | null;
}

// ---------------------------------------------------------------------------------------------
// Text cleaning
// ---------------------------------------------------------------------------------------------

/**
 * Upper case ASCII words and the few marks that carry meaning: "#", a hyphen between letters or
 * digits, a slash between digits. Periods go without a trace ("P.O." is "PO", "N.W." is "NW"); an
 * apostrophe before a final S goes ("LEE'S" is "LEES"), any other becomes a space ("O'FALLON" is
 * "O FALLON", as the Postal Service writes it); all other punctuation becomes a space.
 */
function cleanText(raw: string): string {
  return raw
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/'S\b/g, 'S')
    .replace(/'/g, ' ')
    .replace(/\./g, '')
    .replace(/#/g, ' # ')
    .replace(/(?<![0-9])\/|\/(?![0-9])/g, ' ')
    .replace(/(?<![A-Z0-9])-|-(?![A-Z0-9])/g, ' ')
    .replace(/[^A-Z0-9#/\- ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Words only: no hyphen or slash survives (city names, state names). */
function cleanWords(raw: string): string {
  return cleanText(raw).replace(/[#/-]/g, ' ').replace(/\s+/g, ' ').trim();
}

const tokensOf = (text: string): string[] => (text === '' ? [] : text.split(' '));

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/**
 * Two-letter state code (Pub 28 Appendix B, ./us-states.ts) from a code or name in any case; null
 * when it names no US state. The one reading of a state in the service: the standardiser, and so
 * every verifier, and the Smarty adapter's comparison of the state sent with the state answered.
 */
export function stateCode(province: string): string | null {
  let words = cleanWords(province);
  if (/^[A-Z] [A-Z]$/.test(words)) words = words.replace(' ', ''); // "N. Y." is "NY"
  // Also every character but a letter or digit read as a space ("New.York" is "NEW YORK"), as the
  // Smarty adapter read a state before the two shared this table, so nothing it took is refused.
  const spaced = province.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();
  return STATE_CODE_BY_NAME.get(words) ?? STATE_CODE_BY_NAME.get(spaced) ?? null;
}

function parseZip(zip: string | null): { zip5: string | null; zip4: string | null } {
  const match = /^([0-9]{5})(?:-?([0-9]{4}))?$/.exec((zip ?? '').replace(/\s+/g, ''));
  if (!match) return { zip5: null, zip4: null };
  return { zip5: match[1] as string, zip4: match[2] ?? null };
}

export function standardizeAddress(input: AddressInput): StandardizedAddress {
  const line1 = tokensOf(cleanText(input.streetAddress1 ?? ''));
  const line2 = tokensOf(cleanText(input.streetAddress2 ?? ''));

  // A firm or "care of" line in street_address1 with the street in street_address2: the street
  // line is the primary line; a unit sent first ("Apt 4" / "123 Main St") is still the unit.
  let primaryTokens = line1;
  let secondaryTokens = line2;
  if (!looksLikeStreetLine(line1) && looksLikeStreetLine(line2)) {
    primaryTokens = line2;
    secondaryTokens = parseUnits(line1) ? line1 : [];
  }

  const primary = primaryLine(primaryTokens);
  const secondaryParts = [...primary.units];
  const sentSecondary = standardSecondaryLine(secondaryTokens);
  if (sentSecondary !== null && !secondaryParts.includes(sentSecondary)) secondaryParts.push(sentSecondary);

  const city = input.city === null ? '' : cleanWords(input.city);
  return {
    street: primary.street,
    secondary: secondaryParts.length > 0 ? secondaryParts.join(' ') : null,
    city: city === '' ? null : city,
    state: input.province === null ? null : stateCode(input.province),
    ...parseZip(input.zip),
  };
}

/** What kind of delivery point the standardised primary line names. */
export function addressKind(address: StandardizedAddress): AddressKind {
  const street = address.street;
  if (/^(PSC|CMR|UNIT) [A-Z0-9-]+ BOX [A-Z0-9-]+$/.test(street) || /^(PSC|CMR) [A-Z0-9-]+$/.test(street)) return 'military';
  if (/^PO BOX /.test(street)) return 'po_box';
  if (street === 'GENERAL DELIVERY') return 'general_delivery';
  if (address.state !== null && MILITARY_STATES.has(address.state)) return 'military';
  return 'street';
}
