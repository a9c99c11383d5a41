// What happened to the parcel, one reason of the claim's. A reason whose claim window is closed is
// still shown, disabled, with the store's explanation and the day it opens when it has not yet, so
// the shopper learns why rather than wondering where it went.
import { formatDate } from '../../format';
import { CLAIM_REASONS, REASON_CHOICE, type ClaimReason } from '../../words';
import type { Shipment } from '../../api';
import { describedBy, type FormIds } from './field-ids';

interface ReasonFieldProps {
  /** The form's own id: the radio buttons' group name grows from it. */
  id: string;
  ids: FormIds;
  /** The parcel's claim windows by reason. */
  windows: Map<ClaimReason, Shipment['claim_windows'][number]>;
  reason: ClaimReason | '';
  /** What is wrong with the choice, if anything. */
  error: string | undefined;
  onChoose: (value: ClaimReason) => void;
}

export function ReasonField({ id, ids, windows, reason, error, onChoose }: ReasonFieldProps) {
  return (
    <fieldset className="card choices">
      <legend>What happened?</legend>
      {error === undefined ? null : (
        <p className="field-error" id={ids.reasonError}>
          {error}
        </p>
      )}
      {CLAIM_REASONS.map((value) => {
        const window = windows.get(value);
        const closed = window !== undefined && !window.open;
        return (
          <div key={value} className={closed ? 'choice closed' : 'choice'}>
            <input
              type="radio"
              id={ids.reason(value)}
              name={`${id}-reason`}
              value={value}
              checked={reason === value}
              disabled={closed}
              onChange={() => onChoose(value)}
              aria-invalid={error === undefined ? undefined : true}
              aria-describedby={describedBy(closed && ids.why(value), error !== undefined && ids.reasonError)}
            />
            <label htmlFor={ids.reason(value)}>{REASON_CHOICE[value]}</label>
            {closed ? (
              <p className="choice-why" id={ids.why(value)}>
                {window.explanation}
                {window.opens_on === null ? null : ` You can report it from ${formatDate(window.opens_on)}.`}
              </p>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
