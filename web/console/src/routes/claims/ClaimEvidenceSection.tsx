// What the service holds about the claim, in plain words, beside the decision: the parcel and its
// last scan, the window, the photos, the shopper's earlier claims and the address. Computed by the
// server when the claim is read, never typed in. The parcel's scans themselves are on its shipment
// page, linked here.
import { Link } from '@tanstack/react-router';
import { Facts, Section } from '../../components/Section';
import type { Claim, ClaimOrder } from './claims';
import { evidenceLines } from './evidence';

/**
 * The parcels whose scans speak for the claim: the one it names, or for a whole-order claim the
 * order's uncancelled parcels (the evidence is the worst of them), once the order is read.
 */
function parcelsOf(claim: Claim, order: ClaimOrder): string[] {
  if (claim.tracking_number !== null) return [claim.tracking_number];
  return (order.data?.shipments ?? []).filter((shipment) => shipment.cancelled_on === null).map((shipment) => shipment.tracking_number);
}

export function ClaimEvidenceSection({ claim, order }: { claim: Claim; order: ClaimOrder }) {
  const parcels = parcelsOf(claim, order);
  return (
    <Section title="Evidence" description="What the service knows about this claim now, from the carrier's scans, the store's window and earlier claims.">
      <Facts
        items={evidenceLines(claim.evidence).map(({ label, text, dateTime }) => [label, dateTime === undefined ? text : <time dateTime={dateTime}>{text}</time>] as const)}
      />
      {parcels.length === 0 ? null : (
        <ul className="claim-parcel-links">
          {parcels.map((trackingNumber) => (
            <li key={trackingNumber}>
              <Link to="/shipments/$trackingNumber" params={{ trackingNumber }}>
                Scan timeline of parcel <code>{trackingNumber}</code>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
