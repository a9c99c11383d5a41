// A store's claim page (docs/shopper-claims.md): its branding (logo, accent colour), how shoppers
// reach the store, and its claim windows, as the claim page and the console read them. They are
// changed by update-claim-page.ts.
import type { z } from 'zod';
import { type ClaimPagePatch } from '../../../contract/console/settings.js';
import type { Database } from '../../db/client.js';
import type { ClaimWindowSettings } from './claim-windows.js';
import { AppError } from '../kernel/index.js';

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
export const LOGO_MAX_SIDE = 512;

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

/** The logo's PNG, or 404. */
export async function storeLogo(db: Database, slug: string): Promise<Buffer> {
  const row = await db.storeLogo.findFirst({ where: { store: { slug } }, select: { content: true } });
  if (row === null) throw new AppError('not_found', 'This store has no logo.');
  return Buffer.from(row.content);
}
