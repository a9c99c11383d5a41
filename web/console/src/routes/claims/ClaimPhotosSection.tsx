// The photos the shopper attached on the claim page (a damaged parcel), as thumbnails that open the
// full image in a new tab. The console reads them through its own route, under the session; their
// metadata was removed when they were received.
import { Section } from '../../components/Section';
import { formatBytes } from '../../format';
import { claimPhotoPath, type Claim } from './claims';

export function ClaimPhotosSection({ claim }: { claim: Claim }) {
  const count = claim.photos.length;
  if (count === 0) return null;
  return (
    <Section title="Photos" description={`${count === 1 ? 'One photo' : `${count} photos`} from the shopper. Each opens in full in a new tab.`}>
      <ul className="claim-photos">
        {claim.photos.map((photo, index) => {
          const src = claimPhotoPath(claim.id, photo.id);
          return (
            <li key={photo.id} className="claim-photo">
              <a href={src} target="_blank" rel="noreferrer" className="claim-photo-link">
                <img src={src} alt={`Photo ${index + 1} of ${count} from the shopper`} width={photo.width} height={photo.height} loading="lazy" decoding="async" />
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
              {/* Each part kept on one line: "3.5 kB" never splits. */}
              <p className="claim-photo-size">
                <span>{`${photo.width} × ${photo.height} pixels,`}</span> <span>{formatBytes(photo.bytes)}</span>
              </p>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
