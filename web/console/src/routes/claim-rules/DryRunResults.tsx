// A dry run's answer: how many claims it considered and what the rules would have done with them,
// the same by rule, and the claims where a person decided otherwise, each a link to the claim.
import { Link } from '@tanstack/react-router';
import { MAX_DRY_RUN_CLAIMS } from '../../../../../contract/claim-rules.js';
import { TableScroll } from '../../components/TableScroll';
import { centsOfMajor, formatCents } from '../../format';
import { STATUS_LABEL } from '../claims/claims';
import type { DryRun } from './queries';
import '../../components/compact-table.css';

const WOULD: Record<DryRun['disagreements'][number]['rules_would'], string> = {
  approve: 'approve it',
  deny: 'deny it',
  review: 'send it to review',
};

const money = (major: number) => formatCents(centsOfMajor(major));

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rules-figure">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function DryRunResults({ result }: { result: DryRun }) {
  return (
    <div className="rules-results">
      <dl className="rules-figures" aria-label="What the rules would have done">
        <Figure label="Claims considered" value={result.considered} />
        <Figure label="Approve" value={result.approve} />
        <Figure label="Deny" value={result.deny} />
        <Figure label="Review" value={result.review} />
        <Figure label="No rule matched" value={result.none} />
        <Figure label="Amount approved" value={money(result.amount_approved)} />
      </dl>
      {result.considered >= MAX_DRY_RUN_CLAIMS ? <p className="muted">{`Only the oldest ${MAX_DRY_RUN_CLAIMS.toLocaleString('en-US')} claims since that day were considered.`}</p> : null}

      <h3 className="rules-results-heading">By rule</h3>
      {result.by_rule.length === 0 ? (
        <p className="muted">No rules to try: every claim would wait for a person.</p>
      ) : (
        <TableScroll label="What each rule would have decided">
          <table className="compact-table rules-by-rule">
            <caption className="visually-hidden">What each rule would have decided, in list order</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col" className="number">
                  Approve
                </th>
                <th scope="col" className="number">
                  Deny
                </th>
                <th scope="col" className="number">
                  Review
                </th>
                <th scope="col" className="number">
                  Amount approved
                </th>
              </tr>
            </thead>
            <tbody>
              {result.by_rule.map((rule, index) => (
                <tr key={`${index}-${rule.name}`}>
                  <th scope="row" className="rules-rule-name">
                    {rule.name}
                  </th>
                  {/* data-label: the column's name, shown above each figure when the row stacks on a phone. */}
                  <td className="number" data-label="Approve">
                    {rule.approve}
                  </td>
                  <td className="number" data-label="Deny">
                    {rule.deny}
                  </td>
                  <td className="number" data-label="Review">
                    {rule.review}
                  </td>
                  <td className="number" data-label="Amount approved">
                    {money(rule.amount_approved)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <h3 className="rules-results-heading">Where a person decided otherwise</h3>
      {result.disagreements.length === 0 ? (
        <p className="muted">None: the rules agree with every claim a person approved or denied.</p>
      ) : (
        <ul className="rules-disagreements">
          {result.disagreements.map((item) => (
            <li key={item.claim_id}>
              <Link to="/claims/$claimId" params={{ claimId: item.claim_id }} className="rules-claim-link">
                <code>{item.reference}</code>
              </Link>
              {`: a person ${STATUS_LABEL[item.decided].toLowerCase()} it; rule “${item.rule}” would ${WOULD[item.rules_would]}.`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
