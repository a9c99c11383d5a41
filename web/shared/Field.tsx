// A labelled input with its error: the label names the input, and the error is tied to it by
// aria-describedby and aria-invalid, so a screen reader reads it with the field.
import { useId, type InputHTMLAttributes } from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'aria-invalid' | 'aria-describedby'> {
  label: string;
  /** The field's error, if any. */
  error?: string | undefined;
  /** A hint under the label. */
  hint?: string;
}

export function Field({ label, error, hint, id: givenId, ...input }: FieldProps) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint === undefined ? undefined : hintId, error === undefined ? undefined : errorId].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint === undefined ? null : (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      <input id={id} aria-invalid={error === undefined ? undefined : true} aria-describedby={describedBy === '' ? undefined : describedBy} {...input} />
      {error === undefined ? null : (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
