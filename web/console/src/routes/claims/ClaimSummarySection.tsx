// The claim at a glance: its status, the order and shipment it is on, why, what it claims against
// the amount the order's protection covers, when and where it was filed (the API, the claim page, the operator's CLI), and
// when it last changed and was resolved.
import { Link } from '@tanstack/react-router';
import { Facts, Section } from '../../components/Section';
import { centsOfMajor, formatCents, formatDateTime } from '../../format';
import { ClaimStatusBadge } from './ClaimStatusBadge';
import { CHANNEL_LABEL, REASON_LABEL, type Claim, type ClaimOrder } from './claims';

export function ClaimSummarySection({ claim, order }: { claim: Claim; order: ClaimOrder }) {
  return (
    <Section title="Claim">
      <Facts
        items={[
          ['Status', <ClaimStatusBadge status={claim.status} />],
          [
            'Order',
            <>
              <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: claim.source_order_id }}>
                {claim.source_order_id}
              </Link>
              {/* The number the shopper knows the order by, when it is not the id itself. */}
              {order.data && order.data.order.source_order_number !== claim.source_order_id ? (
                <span className="muted">{` (number ${order.data.order.source_order_number})`}</span>
              ) : null}
            </>,
          ],
          ['Shipment', claim.tracking_number === null ? <span className="muted">None named: the whole order</span> : <code>{claim.tracking_number}</code>],
          ['Reason', REASON_LABEL[claim.reason]],
          ['Amount claimed', formatCents(centsOfMajor(claim.amount_claimed))],
          [
            'Amount covered',
            order.data ? (
              formatCents(centsOfMajor(order.data.order.amount_covered))
            ) : order.isError ? (
              <span className="muted">Unknown: the order could not be read</span>
            ) : (
              <span className="muted">Loading…</span>
            ),
          ],
          ['Filed', <time dateTime={claim.created_on}>{formatDateTime(claim.created_on)}</time>],
          ['Filed on', CHANNEL_LABEL[claim.channel]],
          ['Last changed', <time dateTime={claim.updated_on}>{formatDateTime(claim.updated_on)}</time>],
          ['Resolved', claim.resolved_on === null ? <span className="muted">Not yet</span> : <time dateTime={claim.resolved_on}>{formatDateTime(claim.resolved_on)}</time>],
          ['Claim ID', <code className="claim-id">{claim.id}</code>],
        ]}
      />
    </Section>
  );
}
