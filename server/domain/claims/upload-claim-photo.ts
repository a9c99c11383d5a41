// Uploading a photo of a damaged parcel (docs/shopper-claims.md). A shopper uploads each one on its
// own (a phone on a slow network sends one at a time, and a refused file is known at once); it is
// kept unattached, for that order only, until a claim names it, and swept a day later if none
// does. Each is re-encoded as a JPEG without metadata before anything keeps it (images.ts).
import { storeRowKey, type Database } from '../../db/client.js';
import type { Scope, ShopperActor } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import { MAX_UNATTACHED_PHOTOS_PER_ORDER, PHOTO_MAX_SIDE, toPhotoRecord, type ClaimPhotoRecord } from './claim-photos.js';
import { reencodeImage } from './images.js';
import type { PhotoStore } from './photo-store.js';

/** Keeps a photo for a claim on the shopper's order: its JPEG in the photo store, its record here. */
export async function uploadClaimPhoto(db: Database, scope: Scope<ShopperActor>, photos: PhotoStore, upload: Buffer, now: Date): Promise<ClaimPhotoRecord> {
  const { orderId } = scope.actor;
  const image = await reencodeImage(upload, { field: 'photo', format: 'jpeg', maxSide: PHOTO_MAX_SIDE });
  const row = await db.$transaction(async (tx) => {
    // The order's row lock makes the count and the insert one step for concurrent uploads.
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${orderId}::uuid AND store_id = ${scope.store.id}::uuid FOR UPDATE`;
    const waiting = await tx.claimPhoto.count({ where: { storeId: scope.store.id, orderId, claimId: null } });
    if (waiting >= MAX_UNATTACHED_PHOTOS_PER_ORDER) {
      throw new AppError('conflict', `${MAX_UNATTACHED_PHOTOS_PER_ORDER} photos are already waiting for a claim on this order; file the claim, or try again tomorrow.`);
    }
    const created = await tx.claimPhoto.create({
      data: { storeId: scope.store.id, orderId, width: image.width, height: image.height, byteSize: image.bytes.length, createdAt: now },
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'claim.photo_uploaded', subject: { type: 'order', id: orderId }, details: { photo_id: created.id }, at: now });
    return created;
  });
  try {
    await photos.save(scope.store.id, row.id, image.bytes);
  } catch (error) {
    await db.claimPhoto.delete({ where: storeRowKey(scope.store.id, row.id) }).catch(() => undefined);
    throw error;
  }
  return toPhotoRecord(row);
}

