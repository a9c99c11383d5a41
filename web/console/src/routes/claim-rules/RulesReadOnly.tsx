// The rules as a viewer reads them (they may not change or try them): in order, each with whether it
// is on, its conditions and its outcome in words.
import { Section } from '../../components/Section';
import type { Rule } from './queries';
import { conditionWords, outcomeWords } from './wording';

function RuleText({ rule, index }: { rule: Rule; index: number }) {
  const conditions = conditionWords(rule.when);
  return (
    <li className={rule.enabled ? 'rules-card' : 'rules-card rules-card-off'}>
      <h3 className="rules-card-title">
        {`Rule ${index + 1}: ${rule.name}`}
        {rule.enabled ? null : <span className="rules-off-badge">Off</span>}
      </h3>
      <p className="rules-when-label">When</p>
      {conditions.length === 0 ? (
        <p>Every claim</p>
      ) : (
        <ul className="rules-conditions">
          {conditions.map((words) => (
            <li key={words}>{words}</li>
          ))}
        </ul>
      )}
      <p className="rules-when-label">Then</p>
      <p>{outcomeWords(rule.then)}</p>
      {rule.then.note_to_shopper === undefined ? null : <p className="rules-note">{`Tells the shopper: “${rule.then.note_to_shopper}”`}</p>}
    </li>
  );
}

export function RulesReadOnly({ rules, role }: { rules: readonly Rule[]; role: string }) {
  return (
    <Section title={`The rules (${rules.length})`} description="In order: the first rule that is on and whose conditions all hold decides a new or open claim.">
      <p className="notice">{`Your role (${role}) can read the rules but not change or try them. Ask an owner or an admin.`}</p>
      {rules.length === 0 ? (
        <p className="empty-state">No rules: every claim waits for a person.</p>
      ) : (
        <ol className="rules-list">
          {rules.map((rule, index) => (
            <RuleText key={`${index}-${rule.name}`} rule={rule} index={index} />
          ))}
        </ol>
      )}
    </Section>
  );
}
