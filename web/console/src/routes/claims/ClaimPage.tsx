// /claims/$claimId: one claim, in sections (Medusa's layout): its reference and amount on top (what
// the shopper quotes on the phone), what is claimed and on which order, the items, the shopper's
// words and photos, and once approved the resolution and payout; beside them the evidence, the
// decision and the history. The order is read too, for the items' names and prices, the amount
// its protection covers, and its parcels.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ApiError, errorMessage, sessionQuery } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { PRODUCT_NAME } from '../../navigation';
import { centsOfMajor, formatCents } from '../../format';
import { ClaimContactSection } from './ClaimContactSection';
import { ClaimDecisionSection } from './ClaimDecisionSection';
import { ClaimEvidenceSection } from './ClaimEvidenceSection';
import { ClaimHistorySection } from './ClaimHistorySection';
import { ClaimItemsSection } from './ClaimItemsSection';
import { ClaimPhotosSection } from './ClaimPhotosSection';
import { ClaimResolutionSection } from './ClaimResolutionSection';
import { ClaimStatusBadge } from './ClaimStatusBadge';
import { ClaimSummarySection } from './ClaimSummarySection';
import { ShopperTextSection } from './ShopperTextSection';
import { claimQuery, type Claim } from './claims';
import { orderQuery } from '../orders/queries';
import './claims.css';
import './claim-details.css';

const route = getRouteApi('/logged-in/claims/$claimId');

/** 404, or 400 for an id that is not a claim id at all: either way, the store has no such claim. */
const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

export function ClaimPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const { claimId } = route.useParams();
  const detail = useQuery(claimQuery(claimId));
  const sourceOrderId = detail.data?.claim.source_order_id;
  // The order page's own query: one cache entry for both pages, and a decision refreshes both.
  const order = useQuery({ ...orderQuery(sourceOrderId ?? ''), enabled: sourceOrderId !== undefined });
  const role = session?.user.role ?? 'viewer';
  const missing = detail.data === undefined && detail.isError && isMissing(detail.error);

  // One h1 element in every state, so the focus the layout gives it on arrival stays on it.
  const heading = missing ? 'No such claim' : sourceOrderId === undefined ? 'Claim' : `Claim on order ${sourceOrderId}`;

  return (
    <>
      <title>{`${detail.data ? `${detail.data.claim.reference} · ` : ''}${heading} · Claims · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <nav className="claim-breadcrumb" aria-label="Breadcrumb">
        <Link to="/claims">Claims</Link>
      </nav>
      <div className="page-header">
        <div className="claim-title">
          <h1>{heading}</h1>
          {detail.data ? <ClaimStatusBadge status={detail.data.claim.status} /> : null}
        </div>
      </div>
      {detail.data ? <ClaimKeyline claim={detail.data.claim} /> : null}

      {detail.data ? (
        <>
          {/* A later read failed (the claim is kept as it was last read): say so above it. */}
          <ErrorMessage message={detail.isError ? `The claim could not be read again: ${errorMessage(detail.error)}` : undefined} />
          <div className="claim-layout">
            <div>
              <ClaimSummarySection claim={detail.data.claim} order={order} />
              {/* Once approved, how the claim is made good is the next thing to know about it. */}
              <ClaimResolutionSection claim={detail.data.claim} />
              <ClaimItemsSection claim={detail.data.claim} order={order} />
              <ShopperTextSection claim={detail.data.claim} />
              <ClaimPhotosSection claim={detail.data.claim} />
            </div>
            <div>
              <ClaimContactSection detail={detail.data} order={order} role={role} />
              <ClaimEvidenceSection claim={detail.data.claim} order={order} />
              {/* Keyed by claim: a note or an outcome never carries over to another claim. */}
              <ClaimDecisionSection key={detail.data.claim.id} detail={detail.data} role={role} />
              <ClaimHistorySection detail={detail.data} />
            </div>
          </div>
        </>
      ) : detail.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the claim…
        </p>
      ) : missing ? (
        <div className="empty-state claim-missing">
          <p>{`There is no claim with the id ${claimId} in ${session?.store.name ?? 'this store'}. The link may be wrong, or the claim may belong to another store.`}</p>
          <p>
            <Link to="/claims">See the store&apos;s claims</Link>
          </p>
        </div>
      ) : (
        <ErrorMessage message={`The claim could not be loaded: ${errorMessage(detail.error)}`} />
      )}
    </>
  );
}

/** The reference the shopper was given and what the claim is worth, large, under the heading. */
function ClaimKeyline({ claim }: { claim: Claim }) {
  return (
    <dl className="claim-keyline">
      <div>
        <dt>Reference</dt>
        <dd className="claim-reference">{claim.reference}</dd>
      </div>
      <div>
        <dt>Amount claimed</dt>
        <dd className="claim-keyline-amount">{formatCents(centsOfMajor(claim.amount_claimed))}</dd>
      </div>
    </dl>
  );
}
