// The top of a claim's status page: the outcome in one sentence, who decided (the store's rules are
// said to have decided when they did), the store's notes; then the reference to quote to the store
// and what the claim is worth.
import { useId } from 'react';
import type { Claim } from '../../api';
import { formatDate, formatDateTime, formatMoney } from '../../format';
import { statusTone } from '../../words';
import { decidedBy, decidingChange, outcomeHeadline, outcomeNotes } from './outcome';
import './claim-status.css';

export function ClaimOutcome({ claim }: { claim: Claim }) {
  const id = useId();
  const decision = decidingChange(claim);
  const by = decision === undefined ? undefined : decidedBy(decision);
  return (
    <>
      <section className={`status-panel tone-${statusTone(claim.status)}`} aria-labelledby={`${id}-outcome`}>
        {/* The page's h1 takes the focus on arrival; this region speaks only when the outcome
            changes while the page is open (a refetch when the shopper comes back to the tab). */}
        <div aria-live="polite" aria-atomic="true">
          <p className="status-label">Status</p>
          <h2 id={`${id}-outcome`} className="status-text">
            {outcomeHeadline(claim)}
          </h2>
          {by === undefined ? null : <p className="outcome-by">{by}</p>}
        </div>
        {outcomeNotes(claim, decision).map((note) => (
          <figure key={note.from} className="store-note outcome-note">
            <blockquote>{note.text}</blockquote>
            <figcaption>{note.on === undefined ? note.from : `${note.from} · ${formatDateTime(note.on)}`}</figcaption>
          </figure>
        ))}
      </section>

      <div className="card claim-facts">
        <dl className="facts">
          <div>
            <dt>Claim reference</dt>
            <dd className="reference">{claim.reference}</dd>
          </div>
          <div>
            <dt>Amount claimed</dt>
            <dd>{formatMoney(claim.amount_claimed)}</dd>
          </div>
          <div>
            <dt>Filed on</dt>
            <dd>{formatDate(claim.created_on)}</dd>
          </div>
          <div>
            <dt>Order</dt>
            <dd>{claim.order_number}</dd>
          </div>
        </dl>
        <p className="muted reference-hint">Quote the reference if you contact the store about this claim.</p>
      </div>
    </>
  );
}
