// /claims: the store's claims, oldest first (the one waiting longest on top), by status. The filter
// is a row of links kept in the URL (?status=), so reload, Back and a shared link keep it.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { CLAIM_STATUSES } from '../../../../../contract/claims.js';
import { errorMessage, sessionQuery } from '../../api';
import { CursorPager } from '../../components/CursorPager';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatDateTime } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { ClaimStatusBadge } from './ClaimStatusBadge';
import { claimsListQuery, REASON_LABEL, shortClaimId, STATUS_LABEL, type Claim, type ClaimStatus } from './claims';
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
  const { status, cursors = [] } = route.useSearch();
  const claims = useQuery(claimsListQuery(status, cursors.at(-1)));
  const filterName = status === undefined ? 'All' : STATUS_LABEL[status];

  return (
    <>
      <title>{`Claims${status === undefined ? '' : ` (${filterName})`} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Claims</h1>
      </div>
      <p className="lead">Your shoppers&apos; claims, oldest first: the claim that has waited longest is at the top.</p>

      <StatusFilter current={status} />

      {/* A failed read keeps what was read before, under the error. */}
      <ErrorMessage message={claims.isError ? `The claims could not be loaded: ${errorMessage(claims.error)}` : undefined} />
      {claims.data === undefined ? (
        claims.isPending ? (
          <p className="muted" aria-live="polite">
            Loading claims…
          </p>
        ) : null
      ) : claims.data.data.length === 0 && cursors.length === 0 ? (
        <p className="empty-state">{EMPTY[status ?? 'all']}</p>
      ) : (
        <>
          <ClaimsTable claims={claims.data.data} filterName={filterName} />
          <CursorPager
            label="Pages of claims"
            cursors={cursors}
            nextCursor={claims.data.next_cursor}
            link={(trail, text) => (
              <Link to="/claims" search={{ ...(status === undefined ? {} : { status }), ...(trail === undefined ? {} : { cursors: trail }) }} className="button secondary">
                {text}
              </Link>
            )}
          />
        </>
      )}
    </>
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
                className={selected ? 'claim-filter selected' : 'claim-filter'}
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

/** What a claim is about: one shipment, some items, or the whole order. */
function coverage(claim: Claim): string {
  const units = claim.items.reduce((sum, item) => sum + item.quantity, 0);
  const items = claim.items.length === 0 ? 'Whole order' : `${units} ${units === 1 ? 'unit' : 'units'} of ${claim.items.length} ${claim.items.length === 1 ? 'item' : 'items'}`;
  return claim.tracking_number === null ? items : `${items}, shipment ${claim.tracking_number}`;
}

function ClaimsTable({ claims, filterName }: { claims: readonly Claim[]; filterName: string }) {
  return (
    <div className="claim-table-wrap">
      <table className="table">
        <caption className="visually-hidden">{`Claims (${filterName}), oldest first`}</caption>
        <thead>
          <tr>
            <th scope="col">Claim</th>
            <th scope="col">Order</th>
            <th scope="col">Reason</th>
            <th scope="col">Covers</th>
            <th scope="col">Status</th>
            <th scope="col">Filed</th>
          </tr>
        </thead>
        <tbody>
          {claims.map((claim) => (
            <tr key={claim.id}>
              {/* data-label: the column's name, shown beside each value when rows stack on a phone. */}
              <td data-label="Claim">
                {/* Named "Claim 1a2b3c4d": the name holds the text it shows, as speech input expects. */}
                <Link to="/claims/$claimId" params={{ claimId: claim.id }} className="claim-ref" aria-label={`Claim ${shortClaimId(claim.id)}`}>
                  <code>{shortClaimId(claim.id)}</code>
                </Link>
              </td>
              <td data-label="Order">
                <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: claim.source_order_id }} className="claim-order">
                  {claim.source_order_id}
                </Link>
              </td>
              <td data-label="Reason">{REASON_LABEL[claim.reason]}</td>
              <td data-label="Covers" className="claim-covers">
                {coverage(claim)}
              </td>
              <td data-label="Status">
                <ClaimStatusBadge status={claim.status} />
              </td>
              <td data-label="Filed">
                <time dateTime={claim.created_on}>{formatDateTime(claim.created_on)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
