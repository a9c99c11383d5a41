// A store's claim page (docs/shopper-claims.md): its branding (logo, accent colour), how shoppers
// reach the store, and its claim windows. Set in the console's settings or the operator's CLI,
// through these functions; read by the claim page.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { CLAIM_WINDOW_DAYS, type ClaimPagePatch } from '../../../contract/console/settings.js';
import type { Database } from '../../db/client.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import type { ClaimWindowSettings } from './claim-windows.js';
import { AppError } from '../kernel/errors.js';
import { reencodeImage } from './images.js';

export type ClaimPageChange = z.output<typeof ClaimPagePatch>;

export interface ClaimPageSettings {
  storeId: string;
  slug: string;
  name: string;
  accentColor: string | null;
  supportEmail: string | null;
  supportUrl: string | null;
  /** The logo's content hash (it names the logo's URL, so a new logo is never served from a cache), or null. */
  logoVersion: string | null;
  windows: ClaimWindowSettings;
}

/** A logo is shown small: a PNG at most this many pixels on its longer side. */
const LOGO_MAX_SIDE = 512;

const storeNotFound = () => new AppError('not_found', 'No such store.');

export async function claimPageSettings(db: Database, where: { slug: string } | { id: string }): Promise<ClaimPageSettings> {
  const row = await db.store.findUnique({
    where,
    select: {
      id: true,
      slug: true,
      name: true,
      brandAccentColor: true,
      supportEmail: true,
      supportUrl: true,
      claimLostAfterDays: true,
      claimAfterDeliveryDays: true,
      logo: { select: { sha256: true } },
    },
  });
  if (row === null) throw storeNotFound();
  return {
    storeId: row.id,
    slug: row.slug,
    name: row.name,
    accentColor: row.brandAccentColor,
    supportEmail: row.supportEmail,
    supportUrl: row.supportUrl,
    logoVersion: row.logo?.sha256.slice(0, 16) ?? null,
    windows: { lostAfterDays: row.claimLostAfterDays, afterDeliveryDays: row.claimAfterDeliveryDays },
  };
}

/** Changes what the patch names; null clears an optional setting. */
export async function updateClaimPage(db: Database, actor: Actor, storeId: string, change: ClaimPageChange, now: Date): Promise<void> {
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
export async function setStoreLogo(db: Database, actor: Actor, storeId: string, upload: Buffer, now: Date): Promise<void> {
  const image = await reencodeImage(upload, { field: 'logo', format: 'png', maxSide: LOGO_MAX_SIDE });
  const sha256 = createHash('sha256').update(image.bytes).digest('hex');
  const content = new Uint8Array(image.bytes);
  await db.$transaction(async (tx) => {
    await tx.storeLogo.upsert({ where: { storeId }, create: { storeId, content, sha256, updatedAt: now }, update: { content, sha256, updatedAt: now } });
    await recordAudit(tx, actor, { storeId, action: 'store.logo_set', subject: { type: 'store', id: storeId }, at: now });
  });
}

export async function removeStoreLogo(db: Database, actor: Actor, storeId: string, now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.storeLogo.deleteMany({ where: { storeId } });
    if (count > 0) await recordAudit(tx, actor, { storeId, action: 'store.logo_removed', subject: { type: 'store', id: storeId }, at: now });
  });
}

/** The logo's PNG, or 404. */
export async function storeLogo(db: Database, slug: string): Promise<Buffer> {
  const row = await db.storeLogo.findFirst({ where: { store: { slug } }, select: { content: true } });
  if (row === null) throw new AppError('not_found', 'This store has no logo.');
  return Buffer.from(row.content);
}
