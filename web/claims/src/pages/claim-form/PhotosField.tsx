// The photo picker of a damage claim: the file input, and each chosen photo with its preview, its
// state (uploading, ready, not added and why) and a button to remove it.
import { MAX_CLAIM_PHOTOS, PHOTO_TYPES } from '../../../../../contract/shopper/index.js';
import { photoUrl } from '../../api';
import { describedBy, type FormIds } from './field-ids';
import { MAX_MEGABYTES, type PhotoUploads } from './usePhotoUploads';

interface PhotosFieldProps {
  ids: FormIds;
  uploads: PhotoUploads;
  /** What is wrong with the photos, if anything. */
  error: string | undefined;
  storeSlug: string;
}

export function PhotosField({ ids, uploads, error, storeSlug }: PhotosFieldProps) {
  const { photos, photoNews, fileInput, addPhotos, removePhoto } = uploads;
  const readyCount = photos.filter((photo) => photo.state === 'ready').length;
  return (
    <div className="card field photos-field">
      <label htmlFor={ids.photos}>Photos of the damage</label>
      <p className="field-hint" id={ids.photosHint}>
        {`Up to ${MAX_CLAIM_PHOTOS} photos, ${MAX_MEGABYTES} MB each`}
      </p>
      <input
        ref={fileInput}
        type="file"
        id={ids.photos}
        className="file-input"
        accept={PHOTO_TYPES.join(',')}
        multiple
        onChange={addPhotos}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy(ids.photosHint, error !== undefined && ids.photosError)}
      />
      {error === undefined ? null : (
        <p className="field-error" id={ids.photosError}>
          {error}
        </p>
      )}
      {photos.length === 0 ? null : (
        <ul className="photo-list" aria-label={`Your photos: ${readyCount} ready`}>
          {photos.map((photo) => (
            <li key={photo.key} className={`photo photo-${photo.state}`}>
              <div className="photo-thumb">
                {photo.state === 'ready' && photo.photo ? (
                  <img src={photoUrl(storeSlug, photo.photo.id)} alt={`Preview of ${photo.name}`} />
                ) : photo.state === 'uploading' && photo.preview ? (
                  <img src={photo.preview} alt={`Preview of ${photo.name}`} />
                ) : null}
              </div>
              <div className="photo-info">
                <p className="photo-name">{photo.name}</p>
                <p className="photo-state">{photo.state === 'uploading' ? 'Uploading…' : photo.state === 'ready' ? 'Ready' : 'Not added'}</p>
              </div>
              <button type="button" className="button secondary small" onClick={() => removePhoto(photo)}>
                Remove<span className="visually-hidden">{` ${photo.name}`}</span>
              </button>
              {/* Why, across the whole row: a phone's middle column is narrow. */}
              {photo.state === 'refused' ? <p className="photo-refusal">{photo.message}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" role="status" aria-atomic="true">
        {photoNews}
      </p>
    </div>
  );
}
