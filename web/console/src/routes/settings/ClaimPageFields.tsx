// The claim page form's fields: the accent colour (a picker, its value, and a way back to the
// page's default), the support contacts and the claim windows. Each shows the error the page or the
// server gave its field; the form owns the values and sends them.
import { useRef, type ReactNode } from 'react';
import { CLAIM_WINDOW_DAYS } from '../../../../../contract/console/settings.js';
import { Field } from '../../../../shared/Field';
import type { ClaimPageBody, Draft } from './claim-page-draft';
import { ACCENT_EXPLANATION, AFTER_DELIVERY_WINDOW_EXPLANATION, LOST_WINDOW_EXPLANATION, PICKER_START_COLOR, SUPPORT_EXPLANATION, WINDOWS_EXPLANATION } from './wording';

interface ClaimPageFieldsProps {
  /** The form's own id: the fields' ids grow from it. */
  id: string;
  draft: Draft;
  change: (patch: Partial<Draft>) => void;
  /** The error said about a field, if any. */
  errorOf: (field: keyof ClaimPageBody) => string | undefined;
}

export function AccentField({ id, draft, change, errorOf }: ClaimPageFieldsProps) {
  const colorRef = useRef<HTMLInputElement>(null);
  const accentError = errorOf('accent_color');
  const accentDescribedBy = [`${id}-accent-hint`, `${id}-accent-value`, accentError === undefined ? undefined : `${id}-accent-error`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={`${id}-accent`}>Accent colour</label>
      <p className="field-hint" id={`${id}-accent-hint`}>
        {ACCENT_EXPLANATION}
      </p>
      <div className="settings-color-row">
        <input
          ref={colorRef}
          id={`${id}-accent`}
          className="settings-color"
          type="color"
          value={draft.accent ?? PICKER_START_COLOR}
          aria-invalid={accentError === undefined ? undefined : true}
          aria-describedby={accentDescribedBy}
          onChange={(event) => change({ accent: event.target.value })}
        />
        <code id={`${id}-accent-value`} className="settings-hex">
          {draft.accent ?? 'Default'}
        </code>
        {draft.accent === null ? null : (
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              change({ accent: null });
              // The button goes with the colour: the keyboard stays on the picker.
              colorRef.current?.focus();
            }}
          >
            Use the default colour
          </button>
        )}
      </div>
      {accentError === undefined ? null : (
        <p className="field-error" id={`${id}-accent-error`}>
          {accentError}
        </p>
      )}
    </div>
  );
}

/** A fieldset of two fields side by side, with its legend and the hint that describes it. */
function PairedFieldset({ hintId, legend, hint, children }: { hintId: string; legend: string; hint: string; children: ReactNode }) {
  return (
    <fieldset className="settings-fieldset" aria-describedby={hintId}>
      <legend>{legend}</legend>
      <p className="settings-hint" id={hintId}>
        {hint}
      </p>
      <div className="settings-pair">{children}</div>
    </fieldset>
  );
}

export function SupportFields({ id, draft, change, errorOf }: ClaimPageFieldsProps) {
  return (
    <PairedFieldset hintId={`${id}-support-hint`} legend="Support contacts" hint={SUPPORT_EXPLANATION}>
      <Field
        label="Support e-mail"
        type="email"
        autoComplete="off"
        spellCheck={false}
        value={draft.email}
        onChange={(event) => change({ email: event.target.value })}
        error={errorOf('support_email')}
      />
      <Field
        label="Support URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://"
        value={draft.url}
        onChange={(event) => change({ url: event.target.value })}
        error={errorOf('support_url')}
      />
    </PairedFieldset>
  );
}

/** A claim window in days, within the range the contract and the domain hold it to. */
function WindowDaysField(props: { label: string; hint: string; value: string; onChange: (value: string) => void; error: string | undefined }) {
  return (
    <Field
      label={props.label}
      hint={props.hint}
      type="number"
      inputMode="numeric"
      min={CLAIM_WINDOW_DAYS.min}
      max={CLAIM_WINDOW_DAYS.max}
      step={1}
      className="settings-days"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      error={props.error}
    />
  );
}

export function WindowFields({ id, draft, change, errorOf }: ClaimPageFieldsProps) {
  return (
    <PairedFieldset hintId={`${id}-windows-hint`} legend="Claim windows" hint={WINDOWS_EXPLANATION}>
      <WindowDaysField
        label="Lost parcels: days without a scan"
        hint={LOST_WINDOW_EXPLANATION}
        value={draft.lostDays}
        onChange={(lostDays) => change({ lostDays })}
        error={errorOf('lost_after_days')}
      />
      <WindowDaysField
        label="Damage, missing items, theft: days after delivery"
        hint={AFTER_DELIVERY_WINDOW_EXPLANATION}
        value={draft.afterDeliveryDays}
        onChange={(afterDeliveryDays) => change({ afterDeliveryDays })}
        error={errorOf('after_delivery_days')}
      />
    </PairedFieldset>
  );
}
