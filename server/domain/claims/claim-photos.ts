// Photos of a damaged parcel (docs/shopper-claims.md). A shopper uploads each one on its own (a
// phone on a slow network sends one at a time, and a refused file is known at once); it is kept
// unattached, for that order only, until a claim names it, and swept a day later if none does.
// Each is re-encoded as a JPEG without metadata before anything keeps it (images.ts).
import type { Database, Transaction } from '../../db/client.js';
import { AppError } from '../kernel/errors.js';
import { reencodeImage } from './images.js';
import type { PhotoStore } from './photo-store.js';

/** The longer side of a stored photo: enough to judge damage, a fraction of a phone camera's file. */
const PHOTO_MAX_SIDE = 2560;
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

const toPhotoRecord = (row: { id: string; width: number; height: number; byteSize: number }): ClaimPhotoRecord => ({
  id: row.id,
  width: row.width,
  height: row.height,
  bytes: row.byteSize,
});

export const photoNotFound = () => new AppError('not_found', 'No such photo.');

/** Keeps a photo for a claim on the order: its JPEG in the photo store, its record here. */
export async function uploadClaimPhoto(
  db: Database,
  photos: PhotoStore,
  order: { storeId: string; orderId: string },
  upload: Buffer,
  now: Date,
): Promise<ClaimPhotoRecord> {
  const image = await reencodeImage(upload, { field: 'photo', format: 'jpeg', maxSide: PHOTO_MAX_SIDE });
  const row = await db.$transaction(async (tx) => {
    // The order's row lock makes the count and the insert one step for concurrent uploads.
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${order.orderId}::uuid FOR UPDATE`;
    const waiting = await tx.claimPhoto.count({ where: { orderId: order.orderId, claimId: null } });
    if (waiting >= MAX_UNATTACHED_PHOTOS_PER_ORDER) {
      throw new AppError('conflict', `${MAX_UNATTACHED_PHOTOS_PER_ORDER} photos are already waiting for a claim on this order; file the claim, or try again tomorrow.`);
    }
    return tx.claimPhoto.create({
      data: { storeId: order.storeId, orderId: order.orderId, width: image.width, height: image.height, byteSize: image.bytes.length, createdAt: now },
    });
  });
  try {
    await photos.save(row.id, image.bytes);
  } catch (error) {
    await db.claimPhoto.delete({ where: { id: row.id } }).catch(() => undefined);
    throw error;
  }
  return toPhotoRecord(row);
}

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
export async function photosOfClaims(db: Database | Transaction, claimIds: readonly string[]): Promise<Map<string, ClaimPhotoRecord[]>> {
  const byClaim = new Map<string, ClaimPhotoRecord[]>(claimIds.map((id) => [id, []]));
  if (claimIds.length === 0) return byClaim;
  const rows = await db.claimPhoto.findMany({ where: { claimId: { in: [...claimIds] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  for (const row of rows) if (row.claimId !== null) byClaim.get(row.claimId)?.push(toPhotoRecord(row));
  return byClaim;
}

/** Deletes photos no claim took within the day (their images go with them). */
export async function sweepUnattachedPhotos(db: Database, now: Date): Promise<number> {
  const { count } = await db.claimPhoto.deleteMany({ where: { claimId: null, createdAt: { lt: new Date(now.getTime() - UNATTACHED_PHOTO_HOURS * 3600_000) } } });
  return count;
}
