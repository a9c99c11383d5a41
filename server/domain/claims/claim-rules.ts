// A store's claim rules (docs/claims.md), as numbered versions: each change is a new version, kept,
// so the history of a claim a rule decided can name the version it belongs to. A store that never
// set any has version 0 and no rules.
import type { ClaimRuleInput } from '../../../contract/claim-rules.js';
import { isUniqueViolation, type Database, type Transaction } from '../../db/client.js';
import { actorColumns, recordAudit, type Scope } from '../access/index.js';
import { AppError } from '../kernel/index.js';

export type ClaimRule = ClaimRuleInput;

export interface ClaimRuleSet {
  version: number;
  rules: ClaimRule[];
  updatedAt: Date | null;
}

const NO_RULES: ClaimRuleSet = { version: 0, rules: [], updatedAt: null };

/** The store's current rules. */
export async function getClaimRules(db: Database | Transaction, scope: Pick<Scope, 'store'>): Promise<ClaimRuleSet> {
  const row = await db.claimRuleSet.findFirst({ where: { storeId: scope.store.id }, orderBy: { version: 'desc' } });
  return row === null ? NO_RULES : { version: row.version, rules: row.rules as unknown as ClaimRule[], updatedAt: row.createdAt };
}

/**
 * Sets the whole list as the next version. Two changes at once both read the same latest version;
 * the primary key (store, version) lets one in, and the other takes the next number.
 */
export async function putClaimRules(db: Database, scope: Scope, rules: readonly ClaimRule[], now: Date): Promise<ClaimRuleSet> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      return await db.$transaction(async (tx) => {
        const current = await getClaimRules(tx, scope);
        const version = current.version + 1;
        await tx.claimRuleSet.create({ data: { storeId: scope.store.id, version, rules: rules as unknown as object[], createdAt: now, ...actorColumns(scope.actor) } });
        const details = { version, rules: rules.length, enabled: rules.filter((rule) => rule.enabled).length };
        await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'claim_rules.changed', subject: { type: 'store', id: scope.store.id }, details, at: now });
        return { version, rules: [...rules], updatedAt: now };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new AppError('conflict', 'The rules changed several times at once; send yours again.');
}
