// A claim's reference: CLM- and six characters a person reads aloud and types without confusing
// them (no 0, O, 1, I or L): 31^6, about 887 million, per store. A clash with an earlier claim of
// the store is refused by the unique (store, reference) index, and the filing draws again.
import { randomInt } from 'node:crypto';
import { CLAIM_REFERENCE_ALPHABET } from '../../../contract/claims.js';

export const CLAIM_REFERENCE_CONSTRAINT = 'claims_store_reference_key';

export function newClaimReference(): string {
  let code = '';
  for (let index = 0; index < 6; index += 1) code += CLAIM_REFERENCE_ALPHABET[randomInt(CLAIM_REFERENCE_ALPHABET.length)];
  return `CLM-${code}`;
}

/** A reference as a person may type it: any case, spaces around it, the dash optional. */
export function normalizedReference(typed: string): string {
  const compact = typed.trim().toUpperCase().replace(/\s+/g, '');
  return /^CLM-?[0-9A-Z]{6}$/.test(compact) ? `CLM-${compact.slice(-6)}` : compact;
}
