// The decision dialog's fields: how an approval makes the claim good (the resolution), and what was
// paid when it is marked paid (the payout). Each shows the error the page or the server gave it.
import { useId, type ReactNode } from 'react';
import { RESOLUTION_TYPES } from '../../../../../contract/claims.js';
import { Field } from '../../../../shared/Field';
import { centsOfMajor, formatCents } from '../../format';
import { RESOLUTION_LABEL, type Claim, type ResolutionType } from './claims';
import type { FieldErrors, PayoutDraft, ResolutionDraft } from './decision-form';

const RESOLUTION_HINT: Record<ResolutionType, string> = {
  refund: 'Money back to the shopper, at most the amount claimed.',
  reorder: 'The goods sent to the shopper again.',
  store_credit: 'Credit at your store, at most the amount claimed.',
};

/** An error line tied to its field by id. */
function FieldErrorText({ id, error }: { id: string; error: string | undefined }) {
  return error === undefined ? null : (
    <p className="field-error" id={id}>
      {error}
    </p>
  );
}

/** A labelled textarea with its hint and error, as shared/Field does for inputs. */
function TextAreaField(props: { label: string; hint: string; value: string; onChange: (value: string) => void; error: string | undefined; maxLength: number }): ReactNode {
  const id = useId();
  const describedBy = [`${id}-hint`, props.error === undefined ? undefined : `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <p className="field-hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      <textarea
        id={id}
        className="text-input claim-dialog-textarea"
        rows={3}
        maxLength={props.maxLength}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true}
        aria-describedby={describedBy}
      />
      <FieldErrorText id={`${id}-error`} error={props.error} />
    </div>
  );
}

interface ResolutionFieldsProps {
  claim: Claim;
  draft: ResolutionDraft;
  change: (patch: Partial<ResolutionDraft>) => void;
  errors: FieldErrors;
}

export function ResolutionFields({ claim, draft, change, errors }: ResolutionFieldsProps) {
  const id = useId();
  const typeError = errors['resolution.type'] ?? errors.resolution;
  return (
    <>
      <fieldset className="claim-dialog-fieldset" aria-describedby={typeError === undefined ? undefined : `${id}-type-error`}>
        <legend>How is it made good?</legend>
        {RESOLUTION_TYPES.map((type) => (
          <div className="claim-radio" key={type}>
            <input
              type="radio"
              id={`${id}-${type}`}
              name={`${id}-type`}
              value={type}
              checked={draft.type === type}
              onChange={() => change({ type })}
              aria-describedby={`${id}-${type}-hint`}
              aria-invalid={typeError === undefined ? undefined : true}
            />
            <label htmlFor={`${id}-${type}`}>{RESOLUTION_LABEL[type]}</label>
            <p className="claim-radio-hint" id={`${id}-${type}-hint`}>
              {RESOLUTION_HINT[type]}
            </p>
          </div>
        ))}
        <FieldErrorText id={`${id}-type-error`} error={typeError} />
      </fieldset>
      <Field
        label="Worth (US dollars)"
        hint={`The claim is for ${formatCents(centsOfMajor(claim.amount_claimed))}. Leave empty for that amount.`}
        inputMode="decimal"
        autoComplete="off"
        className="claim-amount-input"
        value={draft.amount}
        onChange={(event) => change({ amount: event.target.value })}
        error={errors['resolution.amount']}
      />
      <TextAreaField
        label="Note to the shopper (optional)"
        hint="Shown to the shopper with the resolution, e.g. how the refund reaches them."
        value={draft.note}
        maxLength={2000}
        onChange={(note) => change({ note })}
        error={errors['resolution.note']}
      />
    </>
  );
}

interface PayoutFieldsProps {
  claim: Claim;
  draft: PayoutDraft;
  change: (patch: Partial<PayoutDraft>) => void;
  errors: FieldErrors;
  today: string;
}

export function PayoutFields({ claim, draft, change, errors, today }: PayoutFieldsProps) {
  const resolution = claim.resolution;
  return (
    <>
      <Field
        label="Amount paid out (US dollars)"
        hint={resolution === null ? 'What the shopper was paid.' : `The resolution is worth ${formatCents(centsOfMajor(resolution.amount))}; the payout is at most that.`}
        inputMode="decimal"
        autoComplete="off"
        className="claim-amount-input"
        value={draft.amount}
        onChange={(event) => change({ amount: event.target.value })}
        error={errors['payout.amount']}
      />
      <Field label="Paid on" type="date" max={today} className="claim-date-input" value={draft.paidOn} onChange={(event) => change({ paidOn: event.target.value })} error={errors['payout.paid_on']} />
      <Field
        label="Your reference (optional)"
        hint="A refund id or a gift card number, for your records."
        autoComplete="off"
        spellCheck={false}
        maxLength={255}
        value={draft.reference}
        onChange={(event) => change({ reference: event.target.value })}
        error={errors['payout.reference']}
      />
    </>
  );
}
