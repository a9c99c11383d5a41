// Verifying an address for a caller (README, Address verification): test keys answer locally; addresses
// outside the US answer unknown without a lookup; identical addresses are looked up once per 24
// hours (the cache lives in PostgreSQL, shared by every instance); a verifier that fails or is
// slow gives unknown, never an error. Nothing here touches orders, shipments or premiums.
import { createHash } from 'node:crypto';
import zipcodes from 'zipcodes';
import { hotQuery, type Database, type HotStatement, type Transaction } from '../../db/client.js';
import { standardizeAddress, type StandardizedAddress } from './address-standardization.js';
import {
  settleVerification,
  unknownVerification,
  type AddressInput,
  type AddressVerifier,
  type DeliveryAddress,
  type Verification,
} from './addresses.js';

export const LOOKUP_REUSE_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_VERIFIER_TIMEOUT_MS = 3_000;

/** Answers that say the verifier could not be asked: never reused, the next request asks again. */
const TRANSIENT_REASONS = new Set([
  'verifier_timeout',
  'verifier_unavailable',
  'verifier_rate_limited',
  'verifier_misconfigured',
  'verifier_rejected',
]);

export interface VerificationSettings {
  verifier: AddressVerifier;
  timeoutMs: number;
}

function isUnitedStates(countryCode: string | null): boolean {
  return countryCode === null || countryCode.trim().toUpperCase() === 'US';
}

/** Test keys: computed locally, no lookup and no cache entry. ZIP 00000 is the undeliverable one. */
export function testModeVerification(standard: StandardizedAddress): Verification {
  if (standard.zip5 === '00000') {
    return {
      verdict: 'undeliverable',
      reason: 'test_undeliverable_zip',
      message: 'Test mode: ZIP 00000 always answers undeliverable.',
      address: null,
      changes: [],
      flags: [],
    };
  }
  const place = standard.zip5 === null ? null : zipcodes.lookup(standard.zip5);
  const address: DeliveryAddress = {
    streetAddress1: standard.street,
    streetAddress2: standard.secondary,
    city: standard.city ?? place?.city.toUpperCase() ?? '',
    province: standard.state ?? place?.state ?? '',
    zip: standard.zip5 ?? place?.zip ?? '',
    zip4: standard.zip4,
  };
  return {
    verdict: 'deliverable',
    reason: 'test_deliverable',
    message: 'Test mode: any well-formed address is deliverable; nothing was looked up.',
    address,
    changes: [],
    flags: [],
  };
}

/** The dedupe key: the verifier and the standardised address, hashed, so the table holds no address. */
function lookupKey(verifierName: string, standard: StandardizedAddress): string {
  const canonical = JSON.stringify([verifierName, standard.street, standard.secondary, standard.city, standard.state, standard.zip5, standard.zip4]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** An address as the wire (or an order) holds it, trimmed, blanks read as absent. */
export function addressInputOf(sent: {
  street_address1?: string | null;
  street_address2?: string | null;
  city?: string | null;
  province?: string | null;
  zip?: string | null;
  country_code?: string | null;
}): AddressInput {
  const text = (value: string | null | undefined) => (value === undefined || value === null || value.trim() === '' ? null : value.trim());
  return {
    streetAddress1: text(sent.street_address1) ?? '',
    streetAddress2: text(sent.street_address2),
    city: text(sent.city),
    province: text(sent.province),
    zip: text(sent.zip),
    countryCode: text(sent.country_code),
  };
}

/** The verifiers whose answers are cached (the local one is asked every time). */
const CACHED_VERIFIERS = ['usps', 'smarty'] as const;

/**
 * Forgets what the cache holds for these addresses (an order's, as it is erased): its key is a
 * hash, but its answer keeps the corrected address for up to a day.
 */
export async function forgetAddressLookups(db: Database | Transaction, addresses: readonly AddressInput[]): Promise<void> {
  const keys = addresses.flatMap((address) => {
    const standard = standardizeUsAddress(address);
    return standard === null ? [] : CACHED_VERIFIERS.map((verifier) => lookupKey(verifier, standard));
  });
  if (keys.length > 0) await db.addressLookup.deleteMany({ where: { keyHash: { in: keys } } });
}

/**
 * The verdict kept for each address by a verifier's answer still in the cache (claims show it as
 * evidence), or null when none is: a shipping address is verified at checkout, not when ordered.
 */
export async function keptVerdicts(db: Database | Transaction, addresses: ReadonlyArray<AddressInput | null>, now: Date): Promise<Array<Verification['verdict'] | null>> {
  const keysOf = addresses.map((address) => {
    const standard = address === null ? null : standardizeUsAddress(address);
    return standard === null ? [] : CACHED_VERIFIERS.map((verifier) => lookupKey(verifier, standard));
  });
  const keys = [...new Set(keysOf.flat())];
  if (keys.length === 0) return addresses.map(() => null);
  const rows = await db.addressLookup.findMany({ where: { keyHash: { in: keys }, expiresAt: { gt: now } }, select: { keyHash: true, result: true } });
  const verdicts = new Map(rows.map((row) => [row.keyHash, (row.result as unknown as Verification).verdict]));
  return keysOf.map((candidates) => candidates.map((key) => verdicts.get(key)).find((verdict) => verdict !== undefined) ?? null);
}

/** Runs the verifier with a deadline; a throw or the deadline becomes unknown. */
async function askVerifier(settings: VerificationSettings, input: AddressInput): Promise<Verification> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Verification>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(unknownVerification('verifier_timeout', 'The address verifier did not answer in time; nothing is known about the address.'));
    }, settings.timeoutMs);
  });
  try {
    return await Promise.race([
      settings.verifier.verify(input, controller.signal).catch(() =>
        unknownVerification('verifier_unavailable', 'The address verifier could not be reached; nothing is known about the address.'),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** An earlier answer for the same standardised address (by its hash), with its expiry. */
const CACHED_LOOKUP: HotStatement = {
  name: 'op_cached_address_lookup',
  text: 'SELECT result, expires_at FROM address_lookups WHERE key_hash = $1',
};

/** The answer for an address outside the United States: never checked. */
export const OUTSIDE_US = unknownVerification('outside_us', 'Only US addresses are verified; this one was not checked.');

/** The standardised address, or null for an address outside the United States (never checked). */
export function standardizeUsAddress(input: AddressInput): StandardizedAddress | null {
  return isUnitedStates(input.countryCode) ? standardizeAddress(input) : null;
}

export async function verifyAddress(
  db: Database,
  settings: VerificationSettings,
  input: AddressInput,
  now: Date,
): Promise<Verification> {
  const standard = standardizeUsAddress(input);
  if (standard === null) return OUTSIDE_US;

  if (settings.verifier.local) return settleVerification(await askVerifier(settings, input));

  const keyHash = lookupKey(settings.verifier.name, standard);
  const [cached] = await hotQuery<{ result: Verification; expires_at: Date }>(db, CACHED_LOOKUP, [keyHash]);
  if (cached && cached.expires_at.getTime() > now.getTime()) return cached.result;

  const verification = settleVerification(await askVerifier(settings, input));
  if (!TRANSIENT_REASONS.has(verification.reason)) {
    const expiresAt = new Date(now.getTime() + LOOKUP_REUSE_MS);
    const result = verification as unknown as object;
    await db.addressLookup.upsert({
      where: { keyHash },
      create: { keyHash, verifier: settings.verifier.name, result, createdAt: now, expiresAt },
      update: { result, createdAt: now, expiresAt },
    });
    // Purge a bounded batch of expired lookups with each write, so the table stays small without a job.
    await db.$executeRaw`
      DELETE FROM address_lookups WHERE key_hash IN (
        SELECT key_hash FROM address_lookups WHERE expires_at <= ${now} LIMIT 100)`;
  }
  return verification;
}
