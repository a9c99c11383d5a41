// The store's webhook endpoints (made with the merchant API): where each sends, what, whether it is
// enabled, and a link to its deliveries.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { formatDateTime } from '../../format';
import { EventTypes, EndpointStatus } from './EndpointParts';
import { endpointsQuery, type Endpoint } from './queries';

export function WebhookEndpointsSection() {
  const endpoints = useQuery(endpointsQuery);
  return (
    <Section
      title="Webhook endpoints"
      description="Where your store's events are sent, signed, as they happen. Endpoints are managed with the API's /v1/webhook_endpoints."
    >
      {endpoints.isPending ? (
        <p className="muted" aria-live="polite">
          Loading webhook endpoints…
        </p>
      ) : endpoints.isError ? (
        <ErrorMessage message={`The webhook endpoints could not be loaded: ${errorMessage(endpoints.error)}`} />
      ) : endpoints.data.length === 0 ? (
        <p className="empty-state">
          No webhook endpoints yet. Create one with <code>POST /v1/webhook_endpoints</code> and a live key.
        </p>
      ) : (
        <EndpointTable endpoints={endpoints.data} />
      )}
    </Section>
  );
}

function EndpointTable({ endpoints }: { endpoints: readonly Endpoint[] }) {
  return (
    <table className="table dev-table">
      <caption className="visually-hidden">Webhook endpoints, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Events</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
          <th scope="col">
            <span className="visually-hidden">Deliveries</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id}>
            <td data-label="URL">
              <span className="dev-stack">
                <span className="dev-url">{endpoint.url}</span>
                {endpoint.description === null ? null : <span className="muted dev-small">{endpoint.description}</span>}
              </span>
            </td>
            <td data-label="Events">
              <EventTypes endpoint={endpoint} />
            </td>
            <td data-label="Status">
              <EndpointStatus endpoint={endpoint} />
            </td>
            <td data-label="Created">
              <time dateTime={endpoint.created_on}>{formatDateTime(endpoint.created_on)}</time>
            </td>
            <td className="row-actions">
              <Link to="/developers/endpoints/$endpointId" params={{ endpointId: endpoint.id }} className="button secondary small">
                Deliveries<span className="visually-hidden"> of {endpoint.url}</span>
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
