// One rule's conditions (when it decides) and outcome (what it decides), as fields. A condition left
// empty or unticked is not sent: it holds for every claim. Each field shows the error the page or
// the server gave it (the server's path, e.g. rules[2].when.max_amount).
import type { ReactNode } from 'react';
import { CLAIM_REASONS, RESOLUTION_TYPES } from '../../../../../contract/claims.js';
import { CLAIM_RULE_ACTIONS } from '../../../../../contract/claim-rules.js';
import { DELIVERY_STATUSES } from '../../../../../contract/shipments.js';
import { Field } from '../../../../shared/Field';
import { REASON_LABEL, RESOLUTION_LABEL } from '../claims/claims';
import { DELIVERY_STATUS_LABEL } from '../shipments/labels';
import type { RuleDraft, RuleField, WindowChoice } from './rules-draft';
import { ACTION_LABEL, WINDOW_LABEL } from './wording';

export interface RuleFieldsProps {
  /** The rule card's id: the fields' ids grow from it. */
  id: string;
  draft: RuleDraft;
  change: (patch: Partial<RuleDraft>) => void;
  errorOf: (field: RuleField) => string | undefined;
}

function ErrorLine({ id, error }: { id: string; error: string | undefined }) {
  return error === undefined ? null : (
    <p className="field-error" id={id}>
      {error}
    </p>
  );
}

/** A fieldset of checkboxes, one per value; none ticked means the condition is not set. */
function CheckboxGroup<T extends string>(props: { id: string; legend: string; hint: string; values: readonly T[]; labels: Record<T, string>; chosen: readonly T[]; onChange: (chosen: T[]) => void; error: string | undefined }) {
  const { id, values, chosen } = props;
  const toggle = (value: T, on: boolean) => props.onChange(values.filter((candidate) => (candidate === value ? on : chosen.includes(candidate))));
  return (
    <fieldset className="rules-fieldset" aria-describedby={[`${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(' ')}>
      <legend>{props.legend}</legend>
      <p className="field-hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      <div className="rules-checks">
        {values.map((value) => (
          <label key={value} className="rules-check">
            <input type="checkbox" checked={chosen.includes(value)} onChange={(event) => toggle(value, event.target.checked)} aria-invalid={props.error === undefined ? undefined : true} />
            <span>{props.labels[value]}</span>
          </label>
        ))}
      </div>
      <ErrorLine id={`${id}-error`} error={props.error} />
    </fieldset>
  );
}

/** A labelled select with its error. */
function SelectField(props: { id: string; label: string; value: string; onChange: (value: string) => void; error: string | undefined; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        className="text-input rules-select"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true}
        aria-describedby={props.error === undefined ? undefined : `${props.id}-error`}
      >
        {props.children}
      </select>
      <ErrorLine id={`${props.id}-error`} error={props.error} />
    </div>
  );
}

const WINDOW_CHOICES: readonly WindowChoice[] = ['any', 'inside', 'outside'];

export function RuleConditionFields({ id, draft, change, errorOf }: RuleFieldsProps) {
  return (
    <fieldset className="rules-part">
      <legend>When every one of these holds</legend>
      <CheckboxGroup
        id={`${id}-reasons`}
        legend="Reason"
        hint="None ticked: any reason."
        values={CLAIM_REASONS}
        labels={REASON_LABEL}
        chosen={draft.reasons}
        onChange={(reasons) => change({ reasons })}
        error={errorOf('when.reasons')}
      />
      <CheckboxGroup
        id={`${id}-statuses`}
        legend="Parcel status"
        hint="None ticked: any status. Ticked, a claim without a parcel never matches."
        values={DELIVERY_STATUSES}
        labels={DELIVERY_STATUS_LABEL}
        chosen={draft.deliveryStatuses}
        onChange={(deliveryStatuses) => change({ deliveryStatuses })}
        error={errorOf('when.delivery_statuses')}
      />
      <div className="rules-grid">
        <Field
          label="Amount claimed at most (US dollars)"
          hint="Empty: any amount."
          inputMode="decimal"
          autoComplete="off"
          value={draft.maxAmount}
          onChange={(event) => change({ maxAmount: event.target.value })}
          error={errorOf('when.max_amount')}
        />
        <Field
          label="At least this many days without a scan"
          hint="Empty: any. Counted from registration before the first scan."
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={draft.minDaysWithoutScan}
          onChange={(event) => change({ minDaysWithoutScan: event.target.value })}
          error={errorOf('when.min_days_without_scan')}
        />
        <Field
          label="The shopper's earlier claims at most"
          hint="At this store, in the past year. Empty: any."
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={draft.maxPriorClaims}
          onChange={(event) => change({ maxPriorClaims: event.target.value })}
          error={errorOf('when.max_prior_claims')}
        />
        <SelectField
          id={`${id}-window`}
          label="Claim window"
          value={draft.withinWindow}
          onChange={(value) => change({ withinWindow: WINDOW_CHOICES.find((choice) => choice === value) ?? 'any' })}
          error={errorOf('when.within_window')}
        >
          {WINDOW_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {WINDOW_LABEL[choice]}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="rules-toggle">
        <label className="rules-check">
          <input
            type="checkbox"
            checked={draft.photoRequired}
            onChange={(event) => change({ photoRequired: event.target.checked })}
            aria-invalid={errorOf('when.photo_required') === undefined ? undefined : true}
            aria-describedby={errorOf('when.photo_required') === undefined ? undefined : `${id}-photo-error`}
          />
          <span>The claim has at least one photo</span>
        </label>
        <ErrorLine id={`${id}-photo-error`} error={errorOf('when.photo_required')} />
      </div>
    </fieldset>
  );
}

export function RuleOutcomeFields({ id, draft, change, errorOf }: RuleFieldsProps) {
  const actionError = errorOf('then.action');
  return (
    <fieldset className="rules-part">
      <legend>Then</legend>
      <fieldset className="rules-fieldset" aria-describedby={actionError === undefined ? undefined : `${id}-action-error`}>
        <legend className="visually-hidden">Outcome</legend>
        <div className="rules-checks">
          {CLAIM_RULE_ACTIONS.map((action) => (
            <label key={action} className="rules-check">
              <input type="radio" name={`${id}-action`} value={action} checked={draft.action === action} onChange={() => change({ action })} aria-invalid={actionError === undefined ? undefined : true} />
              <span>{ACTION_LABEL[action]}</span>
            </label>
          ))}
        </div>
        <ErrorLine id={`${id}-action-error`} error={actionError} />
      </fieldset>
      <div className="rules-grid">
        {draft.action === 'approve' ? (
          <SelectField
            id={`${id}-resolution`}
            label="Made good as"
            value={draft.resolutionType}
            onChange={(value) => change({ resolutionType: RESOLUTION_TYPES.find((type) => type === value) ?? 'refund' })}
            error={errorOf('then.resolution_type')}
          >
            {RESOLUTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {RESOLUTION_LABEL[type]}
              </option>
            ))}
          </SelectField>
        ) : null}
        <Field
          label="Note to the shopper (optional)"
          hint="Shown to the shopper with the decision. Up to 500 characters."
          maxLength={500}
          autoComplete="off"
          value={draft.note}
          onChange={(event) => change({ note: event.target.value })}
          error={errorOf('then.note_to_shopper')}
        />
      </div>
    </fieldset>
  );
}
