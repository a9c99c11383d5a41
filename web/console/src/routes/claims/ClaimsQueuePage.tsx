// /claims: the store's claims, oldest first (the one waiting longest on top), by status, or the one
// claim a shopper quotes by its reference. The filter and the search are kept in the URL (?status=,
// ?reference=), so reload, Back and a shared link keep them.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { CLAIM_STATUSES } from '../../../../../contract/claims.js';
import { errorMessage, sessionQuery } from '../../api';
import { CursorPager } from '../../components/CursorPager';
import { ErrorMessage } from '../../components/ErrorMessage';
import { PRODUCT_NAME } from '../../navigation';
import { claimsListQuery, REFERENCE_MAX, STATUS_LABEL, type ClaimStatus } from './claims';
import { ClaimsTable } from './ClaimsTable';
import '../../components/filter-pill.css';
import './claims.css';

const route = getRouteApi('/logged-in/claims');

/** What the queue says when a filter has nothing. */
const EMPTY: Record<ClaimStatus | 'all', string> = {
  all: 'No claims yet. When a shopper files one on a protected order, it appears here.',
  open: 'No open claims: nothing is waiting for a first look.',
  in_review: 'No claims in review.',
  approved: 'No approved claims waiting to be paid or closed.',
  denied: 'No denied claims.',
  paid: 'No paid claims waiting to be closed.',
  closed: 'No closed claims.',
};

export function ClaimsQueuePage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const { status, cursors = [], reference } = route.useSearch();
  const claims = useQuery(claimsListQuery({ status, cursor: cursors.at(-1), reference }));
  const filterName = status === undefined ? 'All' : STATUS_LABEL[status];
  const caption = reference === undefined ? `Claims (${filterName}), oldest first` : `The claim with reference ${reference}`;

  return (
    <>
      <title>{`Claims${reference !== undefined ? ` (${reference})` : status === undefined ? '' : ` (${filterName})`} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Claims</h1>
        <div className="actions">
          <Link to="/claims/rules" className="button secondary claim-rules-link">
            Claim rules
          </Link>
        </div>
      </div>
      <p className="lead">Your shoppers&apos; claims, oldest first: the claim that has waited longest is at the top.</p>

      {/* Keyed by the URL's reference: Back and a new search show what the URL holds. */}
      <ReferenceSearch key={reference ?? ''} reference={reference} />
      <StatusFilter current={reference === undefined ? status : undefined} />
      {reference === undefined ? null : (
        <p className="claim-search-result">
          {`Searching for the reference ${reference}, in every status. `}
          <Link to="/claims">Show every claim</Link>
        </p>
      )}

      {/* A failed read keeps what was read before, under the error. */}
      <ErrorMessage message={claims.isError ? `The claims could not be loaded: ${errorMessage(claims.error)}` : undefined} />
      {claims.data === undefined ? (
        claims.isPending ? (
          <p className="muted" aria-live="polite">
            Loading claims…
          </p>
        ) : null
      ) : claims.data.data.length === 0 && cursors.length === 0 ? (
        <p className="empty-state">
          {reference === undefined ? EMPTY[status ?? 'all'] : `No claim of this store has the reference ${reference}. References look like CLM-7K3Q9D.`}
        </p>
      ) : (
        <>
          <ClaimsTable claims={claims.data.data} caption={caption} />
          <CursorPager
            label="Pages of claims"
            cursors={cursors}
            nextCursor={claims.data.next_cursor}
            link={(trail, text) => (
              <Link
                to="/claims"
                search={{ ...(status === undefined ? {} : { status }), ...(reference === undefined ? {} : { reference }), ...(trail === undefined ? {} : { cursors: trail }) }}
                className="button secondary"
              >
                {text}
              </Link>
            )}
          />
        </>
      )}
    </>
  );
}

/** The search for one claim by the reference the shopper quotes; a search spans every status. */
function ReferenceSearch({ reference }: { reference: string | undefined }) {
  const id = useId();
  const navigate = useNavigate();
  const [typed, setTyped] = useState(reference ?? '');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = typed.trim();
    void navigate({ to: '/claims', search: wanted === '' ? {} : { reference: wanted } });
  };
  return (
    <form role="search" className="claim-search" onSubmit={submit} aria-label="Claims by reference">
      <label htmlFor={`${id}-reference`}>
        Find a claim by its reference
      </label>
      <div className="claim-search-row">
        <input
          id={`${id}-reference`}
          className="text-input"
          type="search"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          placeholder="CLM-7K3Q9D"
          maxLength={REFERENCE_MAX}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" className="button primary">
          Find
        </button>
      </div>
    </form>
  );
}

function StatusFilter({ current }: { current: ClaimStatus | undefined }) {
  const filters: Array<ClaimStatus | undefined> = [undefined, ...CLAIM_STATUSES];
  return (
    <nav className="claim-filters" aria-label="Filter claims by status">
      <ul>
        {filters.map((status) => {
          const selected = status === current;
          return (
            <li key={status ?? 'all'}>
              {/* Exact: "All" is not also active under ?status=open. An unknown status shows all, so "All" is current then. */}
              <Link
                to="/claims"
                search={status === undefined ? {} : { status }}
                activeOptions={{ exact: true }}
                className={selected ? 'filter-pill selected' : 'filter-pill'}
                aria-current={selected ? 'page' : undefined}
              >
                {status === undefined ? 'All' : STATUS_LABEL[status]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
