// A value the service answers once and keeps no copy of (an endpoint's signing secret, a setup
// link): in a dialog, held in memory only until it closes (never in a URL, the query cache or
// storage), in a text area that wraps the whole value into view, with a copy button.
import { useId, type ReactNode } from 'react';
import { CopyButton } from './CopyButton';
import { Dialog } from './Dialog';

export interface ShownOnce {
  title: string;
  /** What to do with it, and that it will not be shown again. */
  warning: ReactNode;
  /** Said under the warning. */
  detail?: ReactNode;
  /** The value's label ("Signing secret"), and how the copy button names it ("the signing secret"). */
  label: string;
  what: string;
  value: string;
  rows: number;
  closeLabel: string;
  /** Each page's own classes for the text area and the copy button. */
  valueClassName?: string;
  copyClassName?: string;
}

export function ShownOnceDialog({ shown, onClose }: { shown: ShownOnce | null; onClose: () => void }) {
  const id = useId();
  return (
    <Dialog open={shown !== null} onClose={onClose} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      {shown === null ? null : (
        <div className="dialog-body">
          <h2 id={`${id}-title`}>{shown.title}</h2>
          <p className="warning" id={`${id}-note`}>
            {shown.warning}
          </p>
          {shown.detail === undefined ? null : <div className="shown-once-detail">{shown.detail}</div>}
          <label htmlFor={`${id}-value`}>{shown.label}</label>
          <textarea
            id={`${id}-value`}
            className={`secret${shown.valueClassName === undefined ? '' : ` ${shown.valueClassName}`}`}
            readOnly
            rows={shown.rows}
            value={shown.value}
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={shown.value} targetId={`${id}-value`} what={shown.what} {...(shown.copyClassName === undefined ? {} : { className: shown.copyClassName })} />
          <div className="dialog-actions">
            <button type="button" className="button primary" onClick={onClose}>
              {shown.closeLabel}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
