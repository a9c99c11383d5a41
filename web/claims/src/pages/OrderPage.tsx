// /claims/{store}/order: the session's order. Its parcels, each with its carrier, tracking and
// scans, and the way to file a claim on it, or to its claim in the words of that claim's status (a
// settled one leaves filing again open); the order's claims;
// what was ordered. An order without shipment protection, or a cancelled one, gets the store's
// contact and no way to file here.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api, bodyOf, errorMessage, forgetSession, leaveNotice, orderQuery, pathParam, type Order, type Shipment } from '../api';
import { Contact } from '../components/Contact';
import { ErrorMessage } from '../components/ErrorMessage';
import { ItemList, Section } from '../components/Parts';
import { formatCalendarDay, formatDate, formatDateTime } from '../format';
import { DELIVERY_TEXT, REASON_NAME, STATUS_TEXT, statusTone } from '../words';
import { PageHeading } from '../components/PageHeading';
import './claim-status/claim-status.css';

const route = getRouteApi('/$storeSlug/order');

export function OrderPage() {
  const { storeSlug } = route.useParams();
  const order = useQuery(orderQuery(storeSlug));
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const logout = useMutation({
    mutationFn: async () => {
      bodyOf(await api.logout({ params: { store_slug: pathParam(storeSlug) } }), 204);
    },
    onSuccess: async () => {
      forgetSession(queryClient);
      leaveNotice('You have logged out. To see your order again, look it up below.');
      await navigate({ to: '/$storeSlug', params: { storeSlug }, replace: true });
    },
  });

  const data = order.data;
  const heading = data === undefined ? 'Your order' : `Order ${data.order_number}`;
  return (
    <>
      <title>{data === undefined ? 'Your order' : `Order ${data.order_number} · ${data.store.name}`}</title>
      <div className="page-header">
        <div className="page-title">
          <PageHeading>{heading}</PageHeading>
          {data === undefined ? null : <p className="lead">{`Placed on ${formatDate(data.placed_on)}`}</p>}
        </div>
        {data === undefined ? null : (
          <button type="button" className="button secondary" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Log out
          </button>
        )}
      </div>
      <ErrorMessage message={logout.isError ? `Logging out failed: ${errorMessage(logout.error)}` : undefined} />
      {data !== undefined ? (
        <OrderDetails order={data} storeSlug={storeSlug} />
      ) : order.isPending ? (
        <p className="muted" aria-live="polite">
          Loading your order…
        </p>
      ) : (
        <ErrorMessage message={`Your order could not be loaded: ${errorMessage(order.error)}`} />
      )}
    </>
  );
}

function OrderDetails({ order, storeSlug }: { order: Order; storeSlug: string }) {
  const mayFile = order.protected && order.status === 'active';
  return (
    <>
      {order.status === 'cancelled' ? (
        <div className="notice-box">
          <h2>This order was cancelled</h2>
          <p>A cancelled order cannot have a claim. If something is not right, the store can help.</p>
          <Contact store={order.store} />
        </div>
      ) : !order.protected ? (
        <div className="notice-box">
          <h2>This order has no shipment protection</h2>
          <p>Shipment protection was not added to this order when it was placed, so a claim cannot be filed here. The store can still help with a problem with your parcel.</p>
          <Contact store={order.store} />
        </div>
      ) : null}

      {order.claims.length === 0 ? null : <ClaimsSection order={order} storeSlug={storeSlug} />}

      <Section title="Your parcels">
        {order.shipments.length === 0 ? (
          <p className="muted">Nothing has shipped yet. Once the store sends your order, its parcels and their tracking appear here.</p>
        ) : (
          <ul className="plain-list parcels">
            {order.shipments.map((shipment, index) => (
              <li key={shipment.tracking_number}>
                <ParcelCard
                  shipment={shipment}
                  index={index}
                  count={order.shipments.length}
                  storeSlug={storeSlug}
                  mayFile={mayFile}
                  claim={parcelClaim(order, shipment)}
                />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="What you ordered">
        <ItemList items={order.items} />
      </Section>
    </>
  );
}

type ClaimSummary = Order['claims'][number];

/**
 * The claim a parcel's card speaks of: its open claim (one at a time), else its latest claim, which
 * was settled (a new one may be filed); none when the parcel never had one.
 */
function parcelClaim(order: Order, shipment: Shipment): ClaimSummary | null {
  if (shipment.open_claim_id !== null) return order.claims.find((claim) => claim.id === shipment.open_claim_id) ?? null;
  return order.claims.filter((claim) => claim.tracking_number === shipment.tracking_number).at(-1) ?? null;
}

/** What the parcel's claim has come to, in the words of its status (the claims list's badge says the same). */
const PARCEL_CLAIM_TEXT: Record<ClaimSummary['status'], string> = {
  open: 'A claim on this parcel was received; the store will review it.',
  in_review: 'A claim on this parcel is being reviewed.',
  approved: 'A claim on this parcel was approved.',
  denied: 'A claim on this parcel was declined.',
  paid: 'A claim on this parcel was paid.',
  closed: 'A claim on this parcel was closed.',
};

interface ParcelCardProps {
  shipment: Shipment;
  index: number;
  count: number;
  storeSlug: string;
  mayFile: boolean;
  /** The parcel's open claim, else its latest one, if any. */
  claim: ClaimSummary | null;
}

function ParcelCard({ shipment, index, count, storeSlug, mayFile, claim }: ParcelCardProps) {
  const id = useId();
  const title = count === 1 ? 'Your parcel' : `Parcel ${index + 1} of ${count}`;
  return (
    <article className="card parcel" aria-labelledby={`${id}-title`}>
      <div className="parcel-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <span className={`delivery-status delivery-${shipment.status.toLowerCase()}`}>{DELIVERY_TEXT[shipment.status]}</span>
      </div>
      <dl className="facts">
        <div>
          <dt>Carrier</dt>
          <dd>{shipment.carrier}</dd>
        </div>
        <div>
          <dt>Tracking number</dt>
          <dd className="tracking-number">
            {shipment.tracking_url === null ? (
              shipment.tracking_number
            ) : (
              <a href={shipment.tracking_url} rel="noopener noreferrer" target="_blank">
                {shipment.tracking_number}
                <span className="visually-hidden"> (opens the carrier&apos;s tracking page in a new tab)</span>
              </a>
            )}
          </dd>
        </div>
        {shipment.delivered_on !== null ? (
          <div>
            <dt>Delivered</dt>
            <dd>{formatDateTime(shipment.delivered_on)}</dd>
          </div>
        ) : shipment.expected_delivery_date !== null ? (
          <div>
            <dt>Expected delivery</dt>
            <dd>{formatCalendarDay(shipment.expected_delivery_date)}</dd>
          </div>
        ) : null}
      </dl>

      <h4>In this parcel</h4>
      <ItemList items={shipment.items} />

      <h4>Tracking history</h4>
      {shipment.checkpoints.length === 0 ? (
        <p className="muted">No scans from the carrier yet.</p>
      ) : (
        <ol className="timeline" aria-label={`Tracking history of ${title.toLowerCase()}, newest first`}>
          {shipment.checkpoints.map((checkpoint, position) => (
            <li key={`${checkpoint.occurred_at}-${position}`}>
              <p className="timeline-message">{checkpoint.message}</p>
              <p className="timeline-meta">
                {checkpoint.location === null ? null : <span>{`${checkpoint.location} · `}</span>}
                <time dateTime={checkpoint.occurred_at}>{formatDateTime(checkpoint.occurred_at)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}

      {!mayFile ? null : shipment.open_claim_id !== null ? (
        <p className="parcel-action">
          <span className="muted">{claim === null ? 'A claim on this parcel is open. ' : `${PARCEL_CLAIM_TEXT[claim.status]} `}</span>
          <Link to="/$storeSlug/claims/$claimId" params={{ storeSlug, claimId: shipment.open_claim_id }} className="button secondary">
            See your claim
            <span className="visually-hidden">{` on parcel ${shipment.tracking_number}`}</span>
          </Link>
        </p>
      ) : (
        <p className="parcel-action">
          {claim === null ? null : (
            <>
              <span className="muted">{`${PARCEL_CLAIM_TEXT[claim.status]} `}</span>
              <Link to="/$storeSlug/claims/$claimId" params={{ storeSlug, claimId: claim.id }} className="button secondary">
                See your claim
                <span className="visually-hidden">{` on parcel ${shipment.tracking_number}`}</span>
              </Link>{' '}
            </>
          )}
          <Link to="/$storeSlug/order/claim" params={{ storeSlug }} search={{ tracking: shipment.tracking_number }} className="button primary">
            File a claim
            <span className="visually-hidden">{` on parcel ${shipment.tracking_number}`}</span>
          </Link>
        </p>
      )}
    </article>
  );
}

function ClaimsSection({ order, storeSlug }: { order: Order; storeSlug: string }) {
  return (
    <Section title="Your claims">
      <ul className="plain-list claim-list">
        {order.claims.map((claim) => {
          return (
            <li key={claim.id} className="card claim-row">
              <Link to="/$storeSlug/claims/$claimId" params={{ storeSlug, claimId: claim.id }} className="claim-link">
                {REASON_NAME[claim.reason]}
              </Link>
              <span className={`claim-status tone-${statusTone(claim.status)}`}>{STATUS_TEXT[claim.status]}</span>
              <span className="claim-ref">
                {'Reference '}
                <span className="reference">{claim.reference}</span>
              </span>
              <span className="muted claim-meta">
                {`Filed on ${formatDate(claim.created_on)}`}
                {claim.tracking_number === null ? '' : ` · parcel ${claim.tracking_number}`}
              </span>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
