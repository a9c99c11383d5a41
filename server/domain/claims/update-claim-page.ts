// Changing a store's claim page (docs/shopper-claims.md): its branding, contacts and claim
// windows, from the console's settings or the operator's CLI. The windows' range is checked here,
// whatever the door.
import { createHash } from 'node:crypto';
import { CLAIM_WINDOW_DAYS } from '../../../contract/console/settings.js';
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import { LOGO_MAX_SIDE, type ClaimPageChange } from './claim-page-settings.js';
import { reencodeImage } from './images.js';

/** Changes what the patch names; null clears an optional setting. */
export async function updateClaimPage(db: Database, scope: Scope, change: ClaimPageChange, now: Date): Promise<void> {
  const { actor } = scope;
  const storeId = scope.store.id;
  const outOfRange = (['lost_after_days', 'after_delivery_days'] as const).filter((field) => {
    const days = change[field];
    return days !== undefined && !(Number.isInteger(days) && days >= CLAIM_WINDOW_DAYS.min && days <= CLAIM_WINDOW_DAYS.max);
  });
  if (outOfRange.length > 0) {
    throw new AppError(
      'invalid_request',
      'A claim window is out of range.',
      outOfRange.map((field) => ({ field, message: `must be a whole number of days from ${CLAIM_WINDOW_DAYS.min} to ${CLAIM_WINDOW_DAYS.max}` })),
    );
  }
  const data = {
    ...(change.accent_color === undefined ? {} : { brandAccentColor: change.accent_color?.toLowerCase() ?? null }),
    ...(change.support_email === undefined ? {} : { supportEmail: change.support_email }),
    ...(change.support_url === undefined ? {} : { supportUrl: change.support_url }),
    ...(change.lost_after_days === undefined ? {} : { claimLostAfterDays: change.lost_after_days }),
    ...(change.after_delivery_days === undefined ? {} : { claimAfterDeliveryDays: change.after_delivery_days }),
  };
  if (Object.keys(data).length === 0) return;
  await db.$transaction(async (tx) => {
    await tx.store.update({ where: { id: storeId }, data });
    // The fields changed, not their values: a support email is the store's, but it is still an email.
    await recordAudit(tx, actor, { storeId, action: 'store.claim_page_changed', subject: { type: 'store', id: storeId }, details: { changed: Object.keys(change) }, at: now });
  });
}

/** Sets the logo from an uploaded image, re-encoded as PNG without metadata. */
export async function setStoreLogo(db: Database, scope: Scope, upload: Buffer, now: Date): Promise<void> {
  const { actor } = scope;
  const storeId = scope.store.id;
  const image = await reencodeImage(upload, { field: 'logo', format: 'png', maxSide: LOGO_MAX_SIDE });
  const sha256 = createHash('sha256').update(image.bytes).digest('hex');
  const content = new Uint8Array(image.bytes);
  await db.$transaction(async (tx) => {
    await tx.storeLogo.upsert({ where: { storeId }, create: { storeId, content, sha256, updatedAt: now }, update: { content, sha256, updatedAt: now } });
    await recordAudit(tx, actor, { storeId, action: 'store.logo_set', subject: { type: 'store', id: storeId }, at: now });
  });
}

export async function removeStoreLogo(db: Database, scope: Scope, now: Date): Promise<void> {
  const { actor } = scope;
  const storeId = scope.store.id;
  await db.$transaction(async (tx) => {
    const { count } = await tx.storeLogo.deleteMany({ where: { storeId } });
    if (count > 0) await recordAudit(tx, actor, { storeId, action: 'store.logo_removed', subject: { type: 'store', id: storeId }, at: now });
  });
}

