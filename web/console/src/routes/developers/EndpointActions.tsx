// An endpoint, whole (its URL and id unabridged), and what an owner or admin does with it: edit its
// URL, events and description; disable it (after a confirmation: events meanwhile are not sent) and
// enable it; rotate its secret (the new one shown once, the old one still signing for the overlap);
// delete it (after a confirmation).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { SECRET_ROTATION_OVERLAP_HOURS } from '../../../../../contract/webhook-endpoints.js';
import { api, bodyOf, errorMessage, pathParam } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Facts, Section } from '../../components/Section';
import { formatDateTime } from '../../format';
import { EndpointForm, type UpdateBody } from './EndpointForm';
import { EndpointStatus, EventTypes } from './EndpointParts';
import { disabledNote, ROTATION_OVERLAP } from './labels';
import { endpointsQuery, type Endpoint } from './queries';
import { SecretDialog, type ShownSecret } from './SecretDialog';

type Dialogs = 'edit' | 'disable' | 'rotate' | 'delete' | null;

/** The endpoint as the list holds it: a change's answer replaces it there (without any secret). */
function useRememberEndpoint() {
  const queryClient = useQueryClient();
  return async (changed: Endpoint) => {
    queryClient.setQueryData(endpointsQuery.queryKey, (list) => list?.map((endpoint) => (endpoint.id === changed.id ? changed : endpoint)));
    await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
  };
}

/** The endpoint of a rotation's answer, without its secret: only the endpoint goes into the cache. */
function withoutSecret(rotated: Endpoint & { secret: string; previous_secret_expires_on: string }): Endpoint {
  const { secret: _secret, previous_secret_expires_on: _expires, ...endpoint } = rotated;
  return endpoint;
}

export function EndpointSection({ endpoint }: { endpoint: Endpoint }) {
  const id = useId();
  const [open, setOpen] = useState<Dialogs>(null);
  const [said, setSaid] = useState('');
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const remember = useRememberEndpoint();
  const note = disabledNote(endpoint);

  // Enabling gives back what disabling took: no confirmation.
  const enable = useMutation({
    mutationFn: async () => bodyOf(await api.developers.updateEndpoint({ params: { id: pathParam(endpoint.id) }, body: { enabled: true } }), 200),
    onSuccess: async (changed) => {
      setSaid('Enabled: events are sent to it again.');
      await remember(changed);
    },
  });

  const close = () => setOpen(null);
  return (
    <Section title="Endpoint">
      <p className="dev-endpoint-head">
        <span className="visually-hidden">URL: </span>
        <code id={`${id}-url`}>{endpoint.url}</code>
        <CopyButton text={endpoint.url} targetId={`${id}-url`} what="the endpoint URL" />
      </p>
      <p className="dev-endpoint-id">
        Id <code>{endpoint.id}</code>
      </p>
      <div className="dev-summary">
        <Facts
          items={[
            ['Description', endpoint.description === null ? <span className="muted">None</span> : <span className="dev-wrap">{endpoint.description}</span>],
            ['Events', <EventTypes endpoint={endpoint} />],
            ['Status', <EndpointStatus endpoint={endpoint} />],
            ['Deliveries at once', `${endpoint.max_in_flight} (never two about one order, shipment or claim)`],
            ['Created', <time dateTime={endpoint.created_on}>{formatDateTime(endpoint.created_on)}</time>],
            [
              'Secret last rotated',
              endpoint.secret_rotated_on === null ? <span className="muted">Never</span> : <time dateTime={endpoint.secret_rotated_on}>{formatDateTime(endpoint.secret_rotated_on)}</time>,
            ],
          ]}
        />
      </div>
      {note === null ? null : <p className="notice dev-note">{note}</p>}
      <div className="dev-actions" role="group" aria-label="Manage the endpoint">
        <button type="button" className="button secondary" onClick={() => setOpen('edit')}>
          Edit
        </button>
        {endpoint.status === 'enabled' ? (
          <button type="button" className="button secondary" onClick={() => setOpen('disable')}>
            Disable
          </button>
        ) : (
          <button type="button" className="button secondary" onClick={() => enable.mutate()} disabled={enable.isPending}>
            {enable.isPending ? 'Enabling…' : 'Enable'}
          </button>
        )}
        <button type="button" className="button secondary" onClick={() => setOpen('rotate')}>
          Rotate secret
        </button>
        <button type="button" className="button danger-outline" onClick={() => setOpen('delete')}>
          Delete
        </button>
      </div>
      <p className="dev-said" role="status">
        {said}
      </p>
      <ErrorMessage message={enable.isError ? `The endpoint could not be enabled: ${errorMessage(enable.error)}` : undefined} />

      <EditDialog endpoint={endpoint} open={open === 'edit'} onClose={close} onSaved={() => setSaid('Changes saved.')} />
      <DisableDialog endpoint={endpoint} open={open === 'disable'} onClose={close} onDisabled={() => setSaid('Disabled: nothing is sent to it until you enable it.')} />
      <RotateDialog endpoint={endpoint} open={open === 'rotate'} onClose={close} onRotated={setShown} />
      <DeleteDialog endpoint={endpoint} open={open === 'delete'} onClose={close} />
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </Section>
  );
}

interface DialogProps {
  endpoint: Endpoint;
  open: boolean;
  onClose: () => void;
}

function EditDialog({ endpoint, open, onClose, onSaved }: DialogProps & { onSaved: () => void }) {
  const id = useId();
  const remember = useRememberEndpoint();
  const update = useMutation({
    mutationFn: async (body: UpdateBody) => bodyOf(await api.developers.updateEndpoint({ params: { id: pathParam(endpoint.id) }, body }), 200),
    onSuccess: async (changed) => {
      close();
      onSaved();
      await remember(changed);
    },
  });
  const close = () => {
    update.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} labelledBy={`${id}-title`}>
      <div className="dialog-body">
        <h2 id={`${id}-title`}>Edit the endpoint</h2>
        <EndpointForm mode="edit" endpoint={endpoint} onSubmit={(body) => update.mutate(body)} pending={update.isPending} error={update.error} onCancel={close} />
      </div>
    </Dialog>
  );
}

function DisableDialog({ endpoint, open, onClose, onDisabled }: DialogProps & { onDisabled: () => void }) {
  const id = useId();
  const remember = useRememberEndpoint();
  const disable = useMutation({
    mutationFn: async () => bodyOf(await api.developers.updateEndpoint({ params: { id: pathParam(endpoint.id) }, body: { enabled: false } }), 200),
    onSuccess: async (changed) => {
      close();
      onDisabled();
      await remember(changed);
    },
  });
  const close = () => {
    disable.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      <div className="dialog-body">
        <h2 id={`${id}-title`}>Disable this endpoint?</h2>
        <p id={`${id}-note`}>
          Nothing is sent to <code className="dev-wrap">{endpoint.url}</code> while it is disabled. Deliveries already waiting are kept for when you
          enable it again; events that happen meanwhile are not sent to it.
        </p>
        <ErrorMessage message={disable.isError ? `The endpoint could not be disabled: ${errorMessage(disable.error)}` : undefined} />
        <div className="dialog-actions">
          {/* Cancel first: it is what the dialog focuses when it opens. */}
          <button type="button" className="button secondary" onClick={close}>
            Cancel
          </button>
          <button type="button" className="button danger" onClick={() => disable.mutate()} disabled={disable.isPending}>
            {disable.isPending ? 'Disabling…' : 'Disable endpoint'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function RotateDialog({ endpoint, open, onClose, onRotated }: DialogProps & { onRotated: (shown: ShownSecret) => void }) {
  const id = useId();
  const remember = useRememberEndpoint();
  const rotate = useMutation({
    // The answer holds the new secret: the cache drops it as soon as the dialog resets the mutation.
    gcTime: 0,
    mutationFn: async () => bodyOf(await api.developers.rotateSecret({ params: { id: pathParam(endpoint.id) } }), 200),
    onSuccess: async (rotated) => {
      close();
      onRotated({
        title: 'The new signing secret',
        secret: rotated.secret,
        detail: (
          <p>
            Your previous secret keeps signing every delivery beside this one for {SECRET_ROTATION_OVERLAP_HOURS} hours, until{' '}
            <time dateTime={rotated.previous_secret_expires_on}>{formatDateTime(rotated.previous_secret_expires_on)}</time>. Give this one to your
            receiver before then.
          </p>
        ),
      });
      await remember(withoutSecret(rotated));
    },
  });
  const close = () => {
    rotate.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      <div className="dialog-body">
        <h2 id={`${id}-title`}>Rotate the signing secret?</h2>
        <p id={`${id}-note`}>
          A new secret is made and shown to you once. {ROTATION_OVERLAP} After {SECRET_ROTATION_OVERLAP_HOURS} hours only the new one signs.
        </p>
        <ErrorMessage message={rotate.isError ? `The secret could not be rotated: ${errorMessage(rotate.error)}` : undefined} />
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={close}>
            Cancel
          </button>
          <button type="button" className="button primary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
            {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function DeleteDialog({ endpoint, open, onClose }: DialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: async () => bodyOf(await api.developers.deleteEndpoint({ params: { id: pathParam(endpoint.id) } }), 200),
    onSuccess: async () => {
      // Away first: this page would otherwise say the endpoint does not exist.
      await navigate({ to: '/developers' });
      queryClient.setQueryData(endpointsQuery.queryKey, (list) => list?.filter((candidate) => candidate.id !== endpoint.id));
      queryClient.removeQueries({ queryKey: ['developers', 'endpoints', endpoint.id] });
      await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      <div className="dialog-body">
        <h2 id={`${id}-title`}>Delete this endpoint?</h2>
        <p id={`${id}-note`}>
          Nothing more is sent to <code className="dev-wrap">{endpoint.url}</code>, and its deliveries are deleted with it. This cannot be undone.
        </p>
        <ErrorMessage message={remove.isError ? `The endpoint could not be deleted: ${errorMessage(remove.error)}` : undefined} />
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={close}>
            Cancel
          </button>
          <button type="button" className="button danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete endpoint'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
