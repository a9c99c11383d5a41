// Address deliverability verification (README, Address verification). Verifiers (offline, USPS,
// Smarty, in server/addresses/) answer behind one interface; this file holds the shared
// vocabulary and the rules every answer obeys, whichever verifier gave it:
//   - deliverable is null if and only if the verdict is unknown;
//   - address is present only on deliverable and corrected;
//   - changes is empty unless the verdict is corrected.
// A verdict claims only what its verifier really confirmed.

export type Verdict = 'deliverable' | 'corrected' | 'unit_required' | 'undeliverable' | 'unknown';
export type AddressChange = 'street' | 'city' | 'state' | 'zip' | 'secondary';
export type AddressFlag =
  | 'vacant'
  | 'mail_receiving_agency'
  | 'no_mail_service'
  | 'no_street_delivery'
  | 'po_box'
  | 'military'
  | 'general_delivery';

/** The caller's `address` (or `shipping_details`), trimmed; empty strings read as null. */
export interface AddressInput {
  streetAddress1: string;
  streetAddress2: string | null;
  city: string | null;
  /** State name or two-letter abbreviation, as sent. */
  province: string | null;
  zip: string | null;
  /** Null means US. */
  countryCode: string | null;
}

/** The address that will be delivered to, in USPS standard form. */
export interface DeliveryAddress {
  streetAddress1: string;
  streetAddress2: string | null;
  city: string;
  /** Two-letter state code. */
  province: string;
  /** Five digits. */
  zip: string;
  zip4: string | null;
}

export interface Verification {
  verdict: Verdict;
  /** Stable code, e.g. secondary_missing. */
  reason: string;
  /** Plain words, safe to show a support agent. */
  message: string;
  address: DeliveryAddress | null;
  changes: AddressChange[];
  flags: AddressFlag[];
}

export interface AddressVerifier {
  readonly name: 'offline' | 'usps' | 'smarty';
  /**
   * Answers from data on this machine, at no cost: its answers are not kept in the 24-hour lookup
   * cache, which exists to save paid or rate-limited lookups and would cost a database round trip.
   */
  readonly local: boolean;
  /**
   * Verifies a US address. Answers unknown (never throws) when the check cannot be made; the
   * caller also turns a throw or a timeout into unknown. `signal` aborts an outstanding lookup.
   */
  verify(address: AddressInput, signal: AbortSignal): Promise<Verification>;
}

/** The answer when a check cannot be made: says nothing about the address. */
export function unknownVerification(reason: string, message: string): Verification {
  return { verdict: 'unknown', reason, message, address: null, changes: [], flags: [] };
}

/** Enforces the rules of the answer whichever verifier produced it. */
export function settleVerification(verification: Verification): Verification {
  const { verdict } = verification;
  const showsAddress = verdict === 'deliverable' || verdict === 'corrected';
  return {
    ...verification,
    address: showsAddress ? verification.address : null,
    changes: verdict === 'corrected' ? [...new Set(verification.changes)] : [],
    flags: [...new Set(verification.flags)],
  };
}

/** deliverable as the wire shows it: null if and only if unknown. */
export function deliverableOf(verdict: Verdict): boolean | null {
  if (verdict === 'unknown') return null;
  return verdict === 'deliverable' || verdict === 'corrected';
}
