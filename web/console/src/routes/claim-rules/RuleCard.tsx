// One rule in the editor: its place in the list (the first enabled rule that matches decides), its
// name, whether it is on, moving and removing it, and its conditions and outcome. Its buttons carry
// data attributes by which the editor gives the keyboard back after a move or a removal.
import { useId } from 'react';
import { Field } from '../../../../shared/Field';
import type { RuleDraft, RuleField } from './rules-draft';
import { RuleConditionFields, RuleOutcomeFields } from './RuleFields';

interface RuleCardProps {
  draft: RuleDraft;
  index: number;
  count: number;
  change: (patch: Partial<RuleDraft>) => void;
  move: (by: -1 | 1) => void;
  remove: () => void;
  errorOf: (field: RuleField) => string | undefined;
}

/** How a rule is named to assistive technology, in its buttons' names. */
export const ruleName = (draft: RuleDraft, index: number) => (draft.name.trim() === '' ? `rule ${index + 1}` : `“${draft.name.trim()}”`);

export function RuleCard({ draft, index, count, change, move, remove, errorOf }: RuleCardProps) {
  const id = useId();
  const named = ruleName(draft, index);
  return (
    <li className={draft.enabled ? 'rules-card' : 'rules-card rules-card-off'} data-rule-key={draft.key}>
      <div className="rules-card-header">
        <h3 id={`${id}-title`} className="rules-card-title">
          {`Rule ${index + 1}`}
          <span className="visually-hidden">{draft.name.trim() === '' ? '' : `: ${draft.name.trim()}`}</span>
          {draft.enabled ? null : <span className="rules-off-badge">Off</span>}
        </h3>
        <div className="rules-card-tools">
          <button type="button" className="button secondary small" data-move="up" onClick={() => move(-1)} disabled={index === 0} aria-label={`Move ${named} up`}>
            Move up
          </button>
          <button type="button" className="button secondary small" data-move="down" onClick={() => move(1)} disabled={index === count - 1} aria-label={`Move ${named} down`}>
            Move down
          </button>
          <button type="button" className="button danger-outline small" onClick={remove} aria-label={`Remove ${named}`}>
            Remove
          </button>
        </div>
      </div>
      <div className="rules-name-row">
        <Field
          label="Name"
          hint="Shown in the history of every claim it decides."
          maxLength={100}
          autoComplete="off"
          data-rule-name=""
          value={draft.name}
          onChange={(event) => change({ name: event.target.value })}
          error={errorOf('name')}
        />
        <div className="rules-enabled">
          <label className="rules-check">
            <input
              type="checkbox"
              checked={draft.enabled}
              onChange={(event) => change({ enabled: event.target.checked })}
              aria-invalid={errorOf('enabled') === undefined ? undefined : true}
            />
            <span>On: it decides claims</span>
          </label>
          {errorOf('enabled') === undefined ? null : <p className="field-error">{errorOf('enabled')}</p>}
        </div>
      </div>
      <RuleConditionFields id={id} draft={draft} change={change} errorOf={errorOf} />
      <RuleOutcomeFields id={id} draft={draft} change={change} errorOf={errorOf} />
    </li>
  );
}
