// The street line of USPS Publication 28 standardisation (./address-standardization.ts is the
// public entry): secondary units (Appendix C2), the PO Box, General Delivery, military and rural
// route forms, and the street-name order with its suffix (Appendix C1) and directionals. Kept apart
// because it is the one part that parses word by word; the word tables are ./address-data.ts.
import {
  DIRECTIONALS,
  EXTRA_SUFFIX_SPELLINGS,
  HIGHWAY_QUALIFIERS,
  HIGHWAY_WORDS,
  MILITARY_UNIT_WORDS,
  NUMBER_WORDS,
  PO_BOX_FORMS,
  QUALIFIED_ROAD_WORDS,
  RURAL_ROUTE_FORMS,
  SECONDARY_UNIT_DESIGNATORS,
  STREET_SUFFIXES,
} from './address-data.js';

/** What kind of delivery point a primary line names (re-exported by ./address-standardization.ts). */
export type AddressKind = 'street' | 'po_box' | 'general_delivery' | 'military';

// ---------------------------------------------------------------------------------------------
// Lookup maps, built once from the tables in ./address-data.ts
// ---------------------------------------------------------------------------------------------

const SUFFIX_BY_SPELLING = new Map<string, string>();
for (const [standard, spellings] of Object.entries(STREET_SUFFIXES)) {
  SUFFIX_BY_SPELLING.set(standard, standard);
  for (const spelling of spellings) SUFFIX_BY_SPELLING.set(spelling, standard);
}
for (const [spelling, standard] of Object.entries(EXTRA_SUFFIX_SPELLINGS)) SUFFIX_BY_SPELLING.set(spelling, standard);

const DESIGNATOR_BY_SPELLING = new Map<string, { code: string; needsRange: boolean }>();
for (const [code, { spellings, needsRange }] of Object.entries(SECONDARY_UNIT_DESIGNATORS)) {
  DESIGNATOR_BY_SPELLING.set(code, { code, needsRange });
  for (const spelling of spellings) DESIGNATOR_BY_SPELLING.set(spelling, { code, needsRange });
}

const isDirectional = (token: string): boolean => Object.hasOwn(DIRECTIONALS, token);
const ownValue = (table: Readonly<Record<string, string>>, key: string): string | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

// ---------------------------------------------------------------------------------------------
// Token tests
// ---------------------------------------------------------------------------------------------

const hasDigit = (token: string): boolean => /[0-9]/.test(token);
/** A unit or box id: letters and digits, hyphens inside; a word only if it is one or two letters. */
const isUnitId = (token: string | undefined): token is string =>
  token !== undefined && /^[A-Z0-9]+(-[A-Z0-9]+)*$/.test(token) && (hasDigit(token) || token.length <= 2);
const ORDINAL = /^([0-9]+)(ST|ND|RD|TH)$/;

function startsWith(tokens: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((word, i) => tokens[i] === word);
}

// ---------------------------------------------------------------------------------------------
// Secondary units (Appendix C2)
// ---------------------------------------------------------------------------------------------

/** Reads the whole token list as one or more units ("APT 4", "BLDG 2 RM 210", "# 5"); null if it is not. */
export function parseUnits(tokens: readonly string[]): string[] | null {
  const units: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    const designator = DESIGNATOR_BY_SPELLING.get(token);
    const ordinal = ORDINAL.exec(token);
    if (token === '#') {
      const id = tokens[i + 1];
      if (!isUnitId(id)) return null;
      units.push(`# ${id}`);
      i += 2;
    } else if (designator) {
      let next = i + 1;
      if (tokens[next] === '#') next += 1;
      const id = tokens[next];
      if (isUnitId(id)) {
        units.push(`${designator.code} ${id}`);
        i = next + 1;
      } else if (!designator.needsRange && next === i + 1) {
        units.push(designator.code);
        i += 1;
      } else {
        return null;
      }
    } else if (ordinal && DESIGNATOR_BY_SPELLING.get(tokens[i + 1] ?? '')?.code === 'FL') {
      units.push(`FL ${ordinal[1]}`); // "2nd Floor" is "FL 2"
      i += 2;
    } else {
      return null;
    }
  }
  return units.length > 0 ? units : null;
}

/** Splits a unit off the end of a street line: the earliest point from which the rest is all units. */
function splitTrailingUnits(tokens: readonly string[]): { street: string[]; units: string[] } {
  // At least two words (a number and a name, or a two-word name) stay on the street line, so
  // "PIER 39" and "KEY WEST AVE" are never read as units.
  for (let i = 2; i < tokens.length; i += 1) {
    const units = parseUnits(tokens.slice(i));
    if (!units) continue;
    const first = DESIGNATOR_BY_SPELLING.get(tokens[i] as string);
    const bare = first !== undefined && !isUnitId(tokens[i + 1] === '#' ? tokens[i + 2] : tokens[i + 1]);
    // A designator without a number ("REAR") counts only after a complete street ("... ST REAR"),
    // so a name such as "OCEAN FRONT" stays a name.
    const previous = tokens[i - 1] as string;
    if (bare && !SUFFIX_BY_SPELLING.has(previous) && !isDirectional(previous)) continue;
    return { street: tokens.slice(0, i), units };
  }
  return { street: [...tokens], units: [] };
}

/** The secondary line as sent in street_address2: units in standard form, a bare id as "# id". */
export function standardSecondaryLine(tokens: readonly string[]): string | null {
  if (tokens.length === 0) return null;
  const units = parseUnits(tokens);
  if (units) return units.join(' ');
  if (tokens.length === 1 && isUnitId(tokens[0])) return `# ${tokens[0]}`;
  return tokens.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Primary line forms
// ---------------------------------------------------------------------------------------------

interface PrimaryLine {
  street: string;
  /** Units found after the primary part of the line. */
  units: string[];
  kind: AddressKind;
  ruralRoute: boolean;
}

/** Skips "#" marks, returning the next index. */
function skipHash(tokens: readonly string[], i: number): number {
  let j = i;
  while (tokens[j] === '#') j += 1;
  return j;
}

function poBoxLine(tokens: readonly string[]): PrimaryLine | null {
  for (const form of PO_BOX_FORMS) {
    if (!startsWith(tokens, form)) continue;
    const at = skipHash(tokens, form.length);
    const id = tokens[at];
    if (id === undefined || !/^[A-Z0-9]+(-[A-Z0-9]+)*$/.test(id)) return null;
    return { street: `PO BOX ${id}`, units: restAsUnits(tokens.slice(at + 1)), kind: 'po_box', ruralRoute: false };
  }
  return null;
}

function militaryLine(tokens: readonly string[]): PrimaryLine | null {
  const word = tokens[0];
  if (word === undefined || !MILITARY_UNIT_WORDS.has(word)) return null;
  const idAt = skipHash(tokens, 1);
  const id = tokens[idAt];
  if (!isUnitId(id)) return null;
  const boxAt = idAt + 1;
  if (tokens[boxAt] !== 'BOX') {
    // "PSC 1234" and "CMR 480" are military on their own; "UNIT 2050" could be any unit.
    if (word === 'UNIT' || boxAt !== tokens.length) return null;
    return { street: `${word} ${id}`, units: [], kind: 'military', ruralRoute: false };
  }
  const boxIdAt = skipHash(tokens, boxAt + 1);
  const boxId = tokens[boxIdAt];
  if (!isUnitId(boxId)) return null;
  return { street: `${word} ${id} BOX ${boxId}`, units: restAsUnits(tokens.slice(boxIdAt + 1)), kind: 'military', ruralRoute: false };
}

function ruralRouteLine(tokens: readonly string[]): PrimaryLine | null {
  for (const [code, forms] of Object.entries(RURAL_ROUTE_FORMS)) {
    for (const form of forms) {
      if (!startsWith(tokens, form)) continue;
      const routeAt = skipHash(tokens, form.length);
      const route = tokens[routeAt];
      if (route === undefined || !hasDigit(route)) continue;
      let street = `${code} ${route}`;
      let next = routeAt + 1;
      if (tokens[next] === 'BOX' || tokens[next] === 'BX') {
        const boxAt = skipHash(tokens, next + 1);
        const box = tokens[boxAt];
        if (box !== undefined) {
          street += ` BOX ${box}`;
          next = boxAt + 1;
        }
      }
      return { street, units: restAsUnits(tokens.slice(next)), kind: 'street', ruralRoute: true };
    }
  }
  return null;
}

/** Whatever follows a box form: units if they read as units, else kept as sent. */
function restAsUnits(tokens: readonly string[]): string[] {
  if (tokens.length === 0) return [];
  return parseUnits(tokens) ?? [tokens.join(' ')];
}

/** Writes numbered highways out: "HWY 101" is "HIGHWAY 101", "CO RD 5" is "COUNTY ROAD 5". */
function standardHighwayWords(name: readonly string[]): string[] {
  const out = [...name];
  for (let i = 0; i < out.length - 1; i += 1) {
    const word = out[i] as string;
    const following = out[i + 1] as string;
    if (!hasDigit(following)) continue;
    const qualifier = i > 0 ? ownValue(HIGHWAY_QUALIFIERS, out[i - 1] as string) : undefined;
    const highway = ownValue(HIGHWAY_WORDS, word);
    const road = ownValue(QUALIFIED_ROAD_WORDS, word);
    if (highway && (qualifier || highway === 'HIGHWAY' || i === 0)) {
      out[i] = highway;
      if (qualifier) out[i - 1] = qualifier;
    } else if (road && (qualifier === 'COUNTY' || qualifier === 'STATE')) {
      out[i] = road;
      out[i - 1] = qualifier;
    } else if (word === 'CR' && i === 0) {
      out.splice(i, 1, 'COUNTY', 'ROAD');
    }
  }
  return out;
}

/** Number, predirectional, name, suffix, postdirectional (Pub 28 street-name order). */
function standardStreet(tokens: readonly string[]): string {
  const parts: string[] = [];
  let i = 0;
  const first = tokens[0];
  if (first !== undefined && (hasDigit(first) || NUMBER_WORDS.has(first))) {
    parts.push(first);
    i = 1;
    if (tokens[1] !== undefined && /^[0-9]+\/[0-9]+$/.test(tokens[1])) {
      parts.push(tokens[1]); // "123 1/2 MAIN ST"
      i = 2;
    }
  }
  // Hyphens survive only in the house number.
  let core = tokens.slice(i).flatMap((token) => token.split('-')).filter((token) => token !== '' && token !== '#');
  let post: string | null = null;
  let pre: string | null = null;
  const last = core[core.length - 1];
  if (core.length >= 2 && last !== undefined && isDirectional(last) && core.slice(0, -1).some((t) => !isDirectional(t))) {
    post = DIRECTIONALS[last] as string;
    core = core.slice(0, -1);
  }
  const head = core[0];
  if (core.length >= 2 && head !== undefined && isDirectional(head)) {
    // A directional is the street name when only a suffix would be left ("NORTH ST", "N ST NW").
    const remaining = core.slice(1);
    const onlySuffixLeft = remaining.length === 1 && SUFFIX_BY_SPELLING.has(remaining[0] as string);
    if (!onlySuffixLeft) {
      pre = DIRECTIONALS[head] as string;
      core = remaining;
    }
  }
  core = standardHighwayWords(core);
  const suffix = core[core.length - 1];
  // The suffix is the last word of a name of two words or more ("PARK AVE"); a lone suffix word
  // is the name itself ("123 PARKWAY"), and a suffix word first is part of the name ("AVENUE B").
  if (core.length >= 2 && suffix !== undefined && SUFFIX_BY_SPELLING.has(suffix)) {
    core[core.length - 1] = SUFFIX_BY_SPELLING.get(suffix) as string;
  }
  if (pre) parts.push(pre);
  parts.push(...core);
  if (post) parts.push(post);
  return parts.join(' ');
}

export function primaryLine(tokens: readonly string[]): PrimaryLine {
  if (tokens.length === 2 && tokens[0] === 'GENERAL' && tokens[1] === 'DELIVERY') {
    return { street: 'GENERAL DELIVERY', units: [], kind: 'general_delivery', ruralRoute: false };
  }
  const special = poBoxLine(tokens) ?? militaryLine(tokens) ?? ruralRouteLine(tokens);
  if (special) return special;
  const { street, units } = splitTrailingUnits(tokens);
  return { street: standardStreet(street), units, kind: 'street', ruralRoute: false };
}

/** Begins with a house number, or is a box, route or delivery form: a line that can be delivered to. */
export function looksLikeStreetLine(tokens: readonly string[]): boolean {
  const first = tokens[0];
  if (first === undefined) return false;
  if (parseUnits(tokens) || (tokens.length === 1 && isUnitId(first))) return false;
  const line = primaryLine(tokens);
  return line.kind !== 'street' || line.ruralRoute || hasDigit(first) || NUMBER_WORDS.has(first);
}
