// Every status the claim has had, oldest first: its filing, then each decision with who made it and
// its note. A decision a store's rule made names the rule and its version, and lists the evidence it
// read then (which may differ from the evidence now).
import { Section } from '../../components/Section';
import { formatDateTime } from '../../format';
import { ClaimStatusBadge } from './ClaimStatusBadge';
import { byLabel, STATUS_LABEL, type ClaimDetail, type ClaimHistoryEntry } from './claims';
import { evidenceLines } from './evidence';

type Rule = NonNullable<NonNullable<ClaimHistoryEntry['by']>['rule']>;

/**
 * The rule behind each change, by position: the console's history (with people's labels) and the
 * claim's own (with the rule) are the same changes in the same order, oldest first.
 */
function ruleOf(detail: ClaimDetail, index: number): Rule | null {
  return detail.claim.history[index]?.by?.rule ?? null;
}

const ruleLabel = (rule: Pick<Rule, 'name' | 'version'>) => `Rule “${rule.name}” (version ${rule.version})`;

function RuleEvidence({ rule }: { rule: Rule }) {
  return (
    <div className="claim-rule-evidence">
      <p className="claim-rule-evidence-title">What the rule read:</p>
      <dl>
        {evidenceLines(rule.evidence).map((line) => (
          <div key={line.label}>
            <dt>{line.label}</dt>
            <dd>{line.dateTime === undefined ? line.text : <time dateTime={line.dateTime}>{line.text}</time>}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function ClaimHistorySection({ detail }: { detail: ClaimDetail }) {
  return (
    <Section title="History" description="Oldest first.">
      <ol className="claim-history">
        {detail.history.map((change, index) => {
          const rule = ruleOf(detail, index);
          return (
            <li key={`${change.created_at}-${index}`}>
              <p className="claim-change">
                <ClaimStatusBadge status={change.to_status} />
                <span className="muted">{change.from_status === null ? 'Filed' : `from ${STATUS_LABEL[change.from_status]}`}</span>
              </p>
              <p className="claim-change-time">
                <time dateTime={change.created_at}>{formatDateTime(change.created_at)}</time>
                {rule !== null ? (
                  <span className="claim-change-by">{` · automatic: ${ruleLabel(rule)}`}</span>
                ) : change.by === null ? null : (
                  <span className="claim-change-by">{` · by ${byLabel(change.by.label)}`}</span>
                )}
              </p>
              {change.note === null ? null : <p className="claim-note-text">{change.note}</p>}
              {rule === null ? null : <RuleEvidence rule={rule} />}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
