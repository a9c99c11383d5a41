// The audit log: who changed what. One append-only row per change that matters, written in the
// same transaction as the change, so a change is never without its record (nor a record without
// its change). Details hold ids and small facts only: never a secret or personal data.
import type { Database, Prisma, Transaction } from '../../db/client.js';
import { actorColumns, type Actor } from './actor.js';

export type AuditAction =
  | 'store.created'
  | 'store.settings_changed'
  | 'store.claim_page_changed'
  | 'store.logo_set'
  | 'store.logo_removed'
  | 'store.platform_connected'
  | 'platform.created'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'order.cancelled'
  | 'order.redacted'
  | 'privacy_request.received'
  | 'user.created'
  | 'user.password_set'
  | 'user.disabled'
  | 'user.enabled'
  | 'privacy_request.cancelled'
  | 'claim.filed'
  | 'claim.photo_uploaded'
  | 'shopper.order_found'
  | 'claim.status_changed'
  | 'claim_rules.changed'
  | 'webhook_endpoint.created'
  | 'webhook_endpoint.test_sent'
  | 'webhook_endpoint.updated'
  | 'webhook_endpoint.deleted'
  | 'webhook_endpoint.secret_rotated'
  | 'webhook_endpoint.disabled'
  | 'event.resent';

export interface AuditEntry {
  /** Null for what belongs to no store (an operator adding a platform): the operator's own log. */
  storeId: string | null;
  action: AuditAction;
  subject: { type: 'store' | 'platform' | 'api_key' | 'order' | 'claim' | 'webhook_endpoint' | 'event' | 'privacy_request' | 'merchant_user'; id: string };
  details?: Prisma.InputJsonObject;
  at: Date;
}

/** Writes the entry: to the store's audit log, or to the operator's when it belongs to no store. */
export async function recordAudit(db: Database | Transaction, actor: Actor, entry: AuditEntry): Promise<void> {
  const row = {
    ...actorColumns(actor),
    action: entry.action,
    subjectType: entry.subject.type,
    subjectId: entry.subject.id,
    details: entry.details ?? {},
    createdAt: entry.at,
  };
  if (entry.storeId === null) await db.operatorAuditEvent.create({ data: row });
  else await db.auditEvent.create({ data: { storeId: entry.storeId, ...row } });
}
