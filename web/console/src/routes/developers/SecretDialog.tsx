// An endpoint's signing secret, shown once (a new endpoint's, or a rotation's), as the API keys page
// shows a new key.
import type { ReactNode } from 'react';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';

export interface ShownSecret {
  /** The dialog's heading. */
  title: string;
  secret: string;
  /** Said under the warning: e.g. until when the previous secret keeps signing. */
  detail?: ReactNode;
}

export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  return (
    <ShownOnceDialog
      shown={
        shown === null
          ? null
          : {
              title: shown.title,
              warning: 'Copy this signing secret now and give it to your receiver: it checks that each event comes from us. It will not be shown again.',
              ...(shown.detail === undefined ? {} : { detail: shown.detail }),
              label: 'Signing secret',
              what: 'the signing secret',
              value: shown.secret,
              rows: 2,
              closeLabel: 'I have saved the secret',
              copyClassName: 'dev-copy-secret',
            }
      }
      onClose={onClose}
    />
  );
}
