// Where claim photos' bytes live. The claim_photos row is the photo's record (its order, its
// claim, its size); the store keeps only the JPEG under the photo's id. By default that is
// PostgreSQL (claim_photo_objects, whose rows go with their photo's row, so erasing a claim's
// photos erases the images in the same transaction). An S3-compatible store implements the same
// two calls with the id as the object key; it must then delete objects whose photo row is gone
// (a periodic listing of the bucket against claim_photos), as erasure deletes only the rows.
import type { Database } from '../../db/client.js';

export interface PhotoStore {
  /** Keeps the bytes of a photo whose row exists (an object store would key them by store and id). */
  save(storeId: string, photoId: string, jpeg: Buffer): Promise<void>;
  /** The bytes, or null when the store has none (never saved, or erased). */
  read(photoId: string): Promise<Buffer | null>;
}

export function postgresPhotoStore(db: Database): PhotoStore {
  return {
    async save(storeId, photoId, jpeg) {
      await db.claimPhotoObject.create({ data: { photoId, storeId, content: new Uint8Array(jpeg) } });
    },
    async read(photoId) {
      const row = await db.claimPhotoObject.findFirst({ where: { photoId }, select: { content: true } });
      return row === null ? null : Buffer.from(row.content);
    },
  };
}
