// The store's webhook endpoints: where each sends, what, whether it is enabled, and a link to manage
// it; and "Add endpoint", whose signing secret is shown once. The same endpoints as the API's
// /v1/webhook_endpoints.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { api, bodyOf, errorMessage } from '../../api';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { TableScroll } from '../../components/TableScroll';
import { EndpointForm, type CreateBody } from './EndpointForm';
import { EndpointStatus, EventTypes, Truncated, When } from './EndpointParts';
import { endpointsQuery, type Endpoint } from './queries';
import { SecretDialog, type ShownSecret } from './SecretDialog';

export function WebhookEndpointsSection() {
  const endpoints = useQuery(endpointsQuery);
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  return (
    <Section title="Webhook endpoints" description="Where your store's events are sent, signed, as they happen. The same endpoints as the API's /v1/webhook_endpoints.">
      <div className="dev-toolbar">
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      </div>
      {endpoints.isPending ? (
        <p className="muted" aria-live="polite">
          Loading webhook endpoints…
        </p>
      ) : endpoints.isError ? (
        <ErrorMessage message={`The webhook endpoints could not be loaded: ${errorMessage(endpoints.error)}`} />
      ) : endpoints.data.length === 0 ? (
        <p className="empty-state">No webhook endpoints yet. Add one to have your store&apos;s events sent to your systems as they happen.</p>
      ) : (
        <TableScroll label="Webhook endpoints">
          <EndpointTable endpoints={endpoints.data} />
        </TableScroll>
      )}
      <AddEndpointDialog open={adding} onClose={() => setAdding(false)} onAdded={setShown} />
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </Section>
  );
}

function EndpointTable({ endpoints }: { endpoints: readonly Endpoint[] }) {
  return (
    <table className="table dev-table dev-endpoints">
      <caption className="visually-hidden">Webhook endpoints, oldest first</caption>
      <thead>
        <tr>
          <th scope="col" className="dev-col-endpoint">
            Endpoint
          </th>
          <th scope="col" className="dev-col-events">
            Events
          </th>
          <th scope="col" className="dev-col-status">
            Status
          </th>
          <th scope="col" className="dev-col-time">
            Created
          </th>
          <th scope="col" className="dev-col-manage">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id}>
            <td data-label="URL" className="dev-cell-block">
              <span className="dev-stack">
                <Truncated value={endpoint.url} className="dev-endpoint-url" />
                {endpoint.description === null ? null : <Truncated value={endpoint.description} className="muted dev-small" />}
              </span>
            </td>
            <td data-label="Events">
              <EventTypes endpoint={endpoint} limit={3} />
            </td>
            <td data-label="Status">
              <EndpointStatus endpoint={endpoint} />
            </td>
            <td data-label="Created">
              <When iso={endpoint.created_on} />
            </td>
            <td className="row-actions">
              <Link to="/developers/endpoints/$endpointId" params={{ endpointId: endpoint.id }} className="button secondary small">
                Manage<span className="visually-hidden"> {endpoint.url}</span>
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface AddEndpointDialogProps {
  open: boolean;
  onClose: () => void;
  /** The new endpoint's secret, to show once. */
  onAdded: (shown: ShownSecret) => void;
}

function AddEndpointDialog({ open, onClose, onAdded }: AddEndpointDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const create = useMutation({
    // The answer holds the secret: the cache drops it as soon as the dialog resets the mutation.
    gcTime: 0,
    mutationFn: async (body: CreateBody) => bodyOf(await api.developers.createEndpoint({ body }), 201),
    onSuccess: async (added) => {
      close();
      onAdded({
        title: 'Endpoint added: its signing secret',
        secret: added.secret,
        detail: (
          <p className="dev-wrap">
            Events are sent to <code>{added.url}</code> from now on.
          </p>
        ),
      });
      await queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
    },
  });
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      <div className="dialog-body">
        <h2 id={`${id}-title`}>Add a webhook endpoint</h2>
        <p id={`${id}-note`} className="dev-dialog-note">
          Events of the types you choose are sent to this URL, signed with a secret you see once, after adding it.
        </p>
        <EndpointForm mode="add" onSubmit={(body) => create.mutate(body)} pending={create.isPending} error={create.error} onCancel={close} />
      </div>
    </Dialog>
  );
}
