// /claims/{store}/claims/{id}: the claim's outcome in words (claim-status/ClaimOutcome), with its
// reference and worth; the history; and what was claimed, with the photos.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { claimQuery, errorMessage, isMissing, photoUrl, type Claim } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { ItemList, Section } from '../components/Parts';
import { formatDateTime } from '../format';
import { REASON_NAME, STATUS_TEXT } from '../words';
import { PageHeading } from '../components/PageHeading';
import { ClaimOutcome } from './claim-status/ClaimOutcome';
import { outcomeHeadline } from './claim-status/outcome';

const route = getRouteApi('/$storeSlug/claims/$claimId');

export function ClaimStatusPage() {
  const { storeSlug, claimId } = route.useParams();
  const claim = useQuery(claimQuery(storeSlug, claimId));
  const missing = claim.data === undefined && claim.isError && isMissing(claim.error);
  const heading = missing ? 'No such claim' : 'Your claim';

  return (
    <>
      <title>{claim.data === undefined ? heading : `${outcomeHeadline(claim.data)} · Claim ${claim.data.reference}`}</title>
      <p className="back-link">
        <Link to="/$storeSlug/order" params={{ storeSlug }}>
          Back to your order
        </Link>
      </p>
      <PageHeading>{heading}</PageHeading>
      {claim.data !== undefined ? (
        <>
          <ErrorMessage message={claim.isError ? `The claim could not be read again: ${errorMessage(claim.error)}` : undefined} />
          <ClaimDetails claim={claim.data} storeSlug={storeSlug} />
        </>
      ) : claim.isPending ? (
        <p className="muted" aria-live="polite">
          Loading your claim…
        </p>
      ) : missing ? (
        <p>This order has no claim at this address. Go back to your order to see its claims.</p>
      ) : (
        <ErrorMessage message={`Your claim could not be loaded: ${errorMessage(claim.error)}`} />
      )}
    </>
  );
}

function ClaimDetails({ claim, storeSlug }: { claim: Claim; storeSlug: string }) {
  return (
    <>
      <ClaimOutcome claim={claim} />

      <Section title="What you claimed">
        <dl className="facts">
          <div>
            <dt>What happened</dt>
            <dd>{REASON_NAME[claim.reason]}</dd>
          </div>
          <div>
            <dt>Parcel</dt>
            <dd className="tracking-number">{claim.tracking_number ?? 'The whole order'}</dd>
          </div>
          <div className="fact-wide">
            <dt>Items</dt>
            <dd>{claim.items.length === 0 ? (claim.tracking_number === null ? 'The whole order' : 'The whole parcel') : <ItemList items={claim.items} />}</dd>
          </div>
          {claim.description === null ? null : (
            <div className="fact-wide">
              <dt>Your description</dt>
              <dd className="description">{claim.description}</dd>
            </div>
          )}
        </dl>
      </Section>

      {claim.photos.length === 0 ? null : (
        <Section title="Your photos">
          <ul className="plain-list photo-grid">
            {claim.photos.map((photo, index) => (
              <li key={photo.id}>
                <a href={photoUrl(storeSlug, photo.id)} target="_blank" rel="noopener">
                  <img src={photoUrl(storeSlug, photo.id)} alt={`Photo ${index + 1} of ${claim.photos.length}`} width={photo.width} height={photo.height} loading="lazy" />
                  <span className="visually-hidden"> (opens full size in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section title="History">
        <ol className="history">
          {claim.history.map((change, index) => (
            <li key={`${change.changed_on}-${index}`}>
              <p className="history-status">{index === 0 ? `Filed: ${STATUS_TEXT[change.status]}` : STATUS_TEXT[change.status]}</p>
              <p className="muted">
                <time dateTime={change.changed_on}>{formatDateTime(change.changed_on)}</time>
              </p>
              {change.automatic ? <p className="muted">Decided automatically by the store&apos;s claim rules</p> : null}
              {change.note === null ? null : <p className="history-note">{change.note}</p>}
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}
