// The claims filed on the order, each linking to its page.
import { Link } from '@tanstack/react-router';
import { Section } from '../../../components/Section';
import { TableScroll } from '../../../components/TableScroll';
import { formatDateTime } from '../../../format';
import { REASON_LABEL } from '../../claims/claims';
import { ClaimStatusBadge } from '../../claims/ClaimStatusBadge';
import type { Claim } from '../labels';

export function OrderClaimsSection({ claims }: { claims: readonly Claim[] }) {
  return (
    <Section title="Claims">
      {claims.length === 0 ? (
        <p className="muted">No claims.</p>
      ) : (
        <TableScroll label="Claims on the order">
          <table className="table orders-detail-table">
            <caption className="visually-hidden">Claims on the order, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Claim</th>
                <th scope="col">Reason</th>
                <th scope="col">Status</th>
                <th scope="col">About</th>
                <th scope="col">Filed</th>
              </tr>
            </thead>
            <tbody>
              {claims.map((claim) => (
                <tr key={claim.id}>
                  <td data-label="Claim">
                    {/* The reference the shopper quotes; the claim page shows the whole id too. */}
                    <Link to="/claims/$claimId" params={{ claimId: claim.id }} aria-label={`Claim ${claim.reference}`}>
                      <code>{claim.reference}</code>
                    </Link>
                  </td>
                  <td data-label="Reason">{REASON_LABEL[claim.reason]}</td>
                  <td data-label="Status">
                    <ClaimStatusBadge status={claim.status} />
                  </td>
                  <td data-label="About">{claim.tracking_number === null ? 'The whole order' : `Shipment ${claim.tracking_number}`}</td>
                  <td data-label="Filed">
                    <time dateTime={claim.created_on}>{formatDateTime(claim.created_on)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}
