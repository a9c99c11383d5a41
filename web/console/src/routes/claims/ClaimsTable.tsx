// The queue's table: each claim by its reference (what the shopper quotes), its order, why, what it
// is worth, what it covers, its status and when it was filed. On a phone each row becomes a card.
import { Link } from '@tanstack/react-router';
import { centsOfMajor, formatCents, formatDateTime } from '../../format';
import { ClaimStatusBadge } from './ClaimStatusBadge';
import { REASON_LABEL, type Claim } from './claims';

/**
 * What a claim is about: a claim with a tracking number is on that parcel (all of it, or some of
 * its items); one without is on the whole order (all of it, or some of its items).
 */
function coverage(claim: Claim): string {
  const units = claim.items.reduce((sum, item) => sum + item.quantity, 0);
  const items = `${units} ${units === 1 ? 'unit' : 'units'} of ${claim.items.length} ${claim.items.length === 1 ? 'item' : 'items'}`;
  if (claim.tracking_number !== null) return claim.items.length === 0 ? `Parcel ${claim.tracking_number}` : `${items} in parcel ${claim.tracking_number}`;
  return claim.items.length === 0 ? 'Whole order' : items;
}

export function ClaimsTable({ claims, caption }: { claims: readonly Claim[]; caption: string }) {
  return (
    <div className="claim-table-wrap">
      <table className="table claim-queue">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Reference</th>
            <th scope="col">Order</th>
            <th scope="col">Reason</th>
            <th scope="col" className="claim-amount-cell">
              Amount
            </th>
            <th scope="col">Covers</th>
            <th scope="col">Status</th>
            <th scope="col">Filed</th>
          </tr>
        </thead>
        <tbody>
          {claims.map((claim) => (
            <tr key={claim.id}>
              {/* data-label: the column's name, shown beside each value when rows stack on a phone. */}
              <td data-label="Reference">
                {/* Named "Claim CLM-7K3Q9D": the name holds the text it shows, as speech input expects. */}
                <Link to="/claims/$claimId" params={{ claimId: claim.id }} className="claim-ref" aria-label={`Claim ${claim.reference}`}>
                  <code>{claim.reference}</code>
                </Link>
              </td>
              <td data-label="Order">
                <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: claim.source_order_id }} className="claim-order">
                  {claim.source_order_id}
                </Link>
              </td>
              <td data-label="Reason">{REASON_LABEL[claim.reason]}</td>
              <td data-label="Amount" className="claim-amount-cell">
                {formatCents(centsOfMajor(claim.amount_claimed))}
              </td>
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
