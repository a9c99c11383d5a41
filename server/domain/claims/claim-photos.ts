// Photos of a damaged parcel (docs/shopper-claims.md), as kept: read by their order or claim, and
// swept a day after their upload (upload-claim-photo.ts) when no claim took them.
import type { Database, Transaction } from '../../db/client.js';
import { AppError } from '../kernel/index.js';
import type { PhotoStore } from './photo-store.js';

/** The longer side of a stored photo: enough to judge damage, a fraction of a phone camera's file. */
export const PHOTO_MAX_SIDE = 2560;
/** Uploaded and not yet in a claim, per order: a shopper retrying is fine, filling our disk is not. */
export const MAX_UNATTACHED_PHOTOS_PER_ORDER = 20;
/** How long an uploaded photo waits for its claim. */
export const UNATTACHED_PHOTO_HOURS = 24;

export interface ClaimPhotoRecord {
  id: string;
  width: number;
  height: number;
  bytes: number;
}

export const toPhotoRecord = (row: { id: string; width: number; height: number; byteSize: number }): ClaimPhotoRecord => ({
  id: row.id,
  width: row.width,
  height: row.height,
  bytes: row.byteSize,
});

export const photoNotFound = () => new AppError('not_found', 'No such photo.');

/** A photo's JPEG, when `where` (its order, or its claim in a store) owns it; 404 otherwise. */
export async function readClaimPhoto(
  db: Database,
  photos: PhotoStore,
  photoId: string,
  where: { orderId: string } | { storeId: string; claimId: string },
): Promise<Buffer> {
  const row = await db.claimPhoto.findFirst({ where: { id: photoId, ...where }, select: { id: true } });
  const bytes = row === null ? null : await photos.read(row.id);
  if (bytes === null) throw photoNotFound();
  return bytes;
}

/** The photos of each claim, oldest first. */
export async function photosOfClaims(db: Database | Transaction, storeIds: readonly string[], claimIds: readonly string[]): Promise<Map<string, ClaimPhotoRecord[]>> {
  const byClaim = new Map<string, ClaimPhotoRecord[]>(claimIds.map((id) => [id, []]));
  if (claimIds.length === 0) return byClaim;
  const rows = await db.claimPhoto.findMany({ where: { storeId: { in: [...storeIds] }, claimId: { in: [...claimIds] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  for (const row of rows) if (row.claimId !== null) byClaim.get(row.claimId)?.push(toPhotoRecord(row));
  return byClaim;
}

/** Deletes photos no claim took within the day (their images go with them). */
export async function sweepUnattachedPhotos(db: Database, now: Date): Promise<number> {
  const { count } = await db.claimPhoto.deleteMany({ where: { claimId: null, createdAt: { lt: new Date(now.getTime() - UNATTACHED_PHOTO_HOURS * 3600_000) } } });
  return count;
}
