// The claim's photos of the damage: each is uploaded as soon as it is chosen (the claim names them by
// id), shown from the picked file while it uploads, and refused on the spot when there are too many
// or it is too large. What happens to each is said to a screen reader in one live message.
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { MAX_CLAIM_PHOTOS, PHOTO_MAX_BYTES } from '../../../../../contract/shopper/index.js';
import { ApiError, errorMessage, reportError, sentence, uploadPhoto, type Photo } from '../../api';

export interface PhotoEntry {
  key: number;
  name: string;
  state: 'uploading' | 'ready' | 'refused';
  photo?: Photo;
  message?: string;
  /** The picked file itself, shown while it uploads (the CSP allows blob: images for this). */
  preview?: string;
}

export const MAX_MEGABYTES = PHOTO_MAX_BYTES / 1024 / 1024;

/** Why the server refused a photo: its detail about the file when it gave one ("must be a JPEG…"). */
function refusalOf(error: unknown): string {
  const detail = error instanceof ApiError && error.status === 400 ? error.fieldErrors[0]?.message : undefined;
  return detail === undefined ? errorMessage(error) : sentence(`this file ${detail}`);
}

/** `onAdd` is told first whenever photos are chosen: what was said about the photos no longer holds. */
export function usePhotoUploads(storeSlug: string, onAdd: () => void) {
  const [photos, setPhotos] = useState<PhotoEntry[]>([]);
  const [photoNews, setPhotoNews] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const photosNow = useRef(photos);
  const nextKey = useRef(1);

  useEffect(() => {
    photosNow.current = photos;
  }, [photos]);

  // The previews are the browser's memory: freed when the form goes.
  useEffect(
    () => () => {
      for (const photo of photosNow.current) if (photo.preview) URL.revokeObjectURL(photo.preview);
    },
    [],
  );

  const updatePhoto = (key: number, change: Partial<PhotoEntry>) =>
    setPhotos((current) => current.map((photo) => (photo.key === key ? { ...photo, ...change } : photo)));

  const addPhotos = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    onAdd();
    // Emptied, so choosing the same file again (after removing it) is a change too.
    event.target.value = '';
    let kept = photosNow.current.filter((photo) => photo.state !== 'refused').length;
    const added: PhotoEntry[] = [];
    const news: string[] = [];
    for (const file of files) {
      const key = nextKey.current;
      nextKey.current += 1;
      if (kept >= MAX_CLAIM_PHOTOS) {
        added.push({ key, name: file.name, state: 'refused', message: `A claim can have at most ${MAX_CLAIM_PHOTOS} photos: remove one to add another.` });
        news.push(`${file.name} was not added: at most ${MAX_CLAIM_PHOTOS} photos.`);
      } else if (file.size > PHOTO_MAX_BYTES) {
        added.push({ key, name: file.name, state: 'refused', message: `This file is larger than ${MAX_MEGABYTES} MB.` });
        news.push(`${file.name} was not added: it is larger than ${MAX_MEGABYTES} MB.`);
      } else {
        kept += 1;
        added.push({ key, name: file.name, state: 'uploading', preview: URL.createObjectURL(file) });
        news.push(`Uploading ${file.name}.`);
        uploadPhoto(storeSlug, file).then(
          (photo) => {
            updatePhoto(key, { state: 'ready', photo });
            setPhotoNews(`${file.name} is uploaded.`);
          },
          (error: unknown) => {
            reportError(error);
            updatePhoto(key, { state: 'refused', message: refusalOf(error) });
            setPhotoNews(`${file.name} was not added. ${refusalOf(error)}`);
          },
        );
      }
    }
    photosNow.current = [...photosNow.current, ...added];
    setPhotos((current) => [...current, ...added]);
    setPhotoNews(news.join(' '));
  };

  const removePhoto = (entry: PhotoEntry) => {
    if (entry.preview) URL.revokeObjectURL(entry.preview);
    setPhotos((current) => current.filter((photo) => photo.key !== entry.key));
    photosNow.current = photosNow.current.filter((photo) => photo.key !== entry.key);
    setPhotoNews(`${entry.name} removed.`);
    // The button is gone: the focus goes back to where photos are added.
    fileInput.current?.focus();
  };

  return { photos, photoNews, fileInput, addPhotos, removePhoto };
}

export type PhotoUploads = ReturnType<typeof usePhotoUploads>;
