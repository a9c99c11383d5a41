// How an approved claim is made good (its resolution) and, once paid, what was paid out: shown as
// soon as the approval set them. The service records both; it moves no money itself.
import { Facts, Section } from '../../components/Section';
import { centsOfMajor, formatCents, formatDate } from '../../format';
import { RESOLUTION_LABEL, type Claim } from './claims';

export function ClaimResolutionSection({ claim }: { claim: Claim }) {
  const { resolution, payout } = claim;
  if (resolution === null) return null;
  return (
    <Section title="Resolution" description={payout === null ? 'Set when the claim was approved. Not paid yet.' : 'Set when the claim was approved, and what was paid out.'}>
      <Facts
        items={[
          ['How it is made good', RESOLUTION_LABEL[resolution.type]],
          ['Worth', formatCents(centsOfMajor(resolution.amount))],
          ['Note to the shopper', resolution.note === null ? <span className="muted">None</span> : <span className="claim-note-text">{resolution.note}</span>],
        ]}
      />
      {payout === null ? null : (
        <>
          <h3 className="claim-subheading">Payout</h3>
          <Facts
            items={[
              ['Paid out', formatCents(centsOfMajor(payout.amount))],
              ['Paid on', <time dateTime={payout.paid_on}>{formatDate(payout.paid_on)}</time>],
              ['Your reference', payout.reference === null ? <span className="muted">None</span> : <code>{payout.reference}</code>],
            ]}
          />
        </>
      )}
    </Section>
  );
}
