// Images people upload (a shopper's photos of a damaged parcel, a store's logo): the type is judged
// from the bytes (file-type), never from a name or a Content-Type header, and the image is decoded
// and written again by sharp, which drops every piece of metadata (GPS position, camera, owner)
// and anything hidden after the pixels. What is stored is always our own re-encoding.
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { PHOTO_TYPES } from '../../../contract/shopper/index.js';
import { AppError } from '../kernel/index.js';

export interface StoredImage {
  bytes: Buffer;
  width: number;
  height: number;
}

/** Decoding a small file into a huge bitmap (a decompression bomb) is refused past this. */
const MAX_INPUT_PIXELS = 50_000_000;

const refused = (field: string, message: string) => new AppError('invalid_request', 'The image cannot be accepted.', [{ field, message }]);

/**
 * The image re-encoded as `format`, at most `maxSide` pixels on its longer side, turned upright
 * as its EXIF orientation said (the orientation is metadata, and goes with the rest).
 */
export async function reencodeImage(bytes: Buffer, options: { field: string; format: 'jpeg' | 'png'; maxSide: number }): Promise<StoredImage> {
  if (bytes.length === 0) throw refused(options.field, 'must not be empty: send the image itself as the body');
  const detected = await fileTypeFromBuffer(bytes);
  if (detected === undefined || !(PHOTO_TYPES as readonly string[]).includes(detected.mime)) {
    throw refused(options.field, 'must be a JPEG, PNG or WebP image (judged by its content, not its name)');
  }
  try {
    const pipeline = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: options.maxSide, height: options.maxSide, fit: 'inside', withoutEnlargement: true });
    const { data, info } = await (options.format === 'jpeg' ? pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }) : pipeline.png()).toBuffer({
      resolveWithObject: true,
    });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    // A truncated or corrupt file, or one too large to decode: sharp's message names nothing useful.
    throw refused(options.field, 'is not an image that can be read (damaged, truncated or too large)');
  }
}
