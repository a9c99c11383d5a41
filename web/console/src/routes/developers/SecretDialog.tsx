// An endpoint's signing secret, shown once (a new endpoint's, or a rotation's), as the API keys page
// shows a new key: in a dialog, held in memory only until it closes (never in a URL, the query cache
// or storage), in a text area to copy whole.
import { useId, type ReactNode } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';

export interface ShownSecret {
  /** The dialog's heading. */
  title: string;
  secret: string;
  /** Said under the warning: e.g. until when the previous secret keeps signing. */
  detail?: ReactNode;
}

export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  const id = useId();
  return (
    <Dialog open={shown !== null} onClose={onClose} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      {shown === null ? null : (
        <div className="dialog-body">
          <h2 id={`${id}-title`}>{shown.title}</h2>
          <p className="warning" id={`${id}-note`}>
            Copy this signing secret now and give it to your receiver: it checks that each event comes from us. It will not be shown again.
          </p>
          {shown.detail === undefined ? null : <div className="dev-secret-detail">{shown.detail}</div>}
          <label htmlFor={`${id}-secret`}>Signing secret</label>
          {/* A text area, not an input: the whole secret wraps into view, even on a phone. */}
          <textarea
            id={`${id}-secret`}
            className="secret"
            readOnly
            rows={2}
            value={shown.secret}
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={shown.secret} targetId={`${id}-secret`} what="the signing secret" className="dev-copy-secret" />
          <div className="dialog-actions">
            <button type="button" className="button primary" onClick={onClose}>
              I have saved the secret
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
