// Pieces of an endpoint shown on both developers pages: the event types it receives and its status.
import { formatDateTime } from '../../format';
import { endpointStatus, receivesAll } from './labels';
import type { Endpoint } from './queries';

export function EventTypes({ endpoint }: { endpoint: Endpoint }) {
  if (receivesAll(endpoint)) return <span>All events</span>;
  return (
    <ul className="dev-event-list">
      {endpoint.events.map((type) => (
        <li key={type}>
          <code>{type}</code>
        </li>
      ))}
    </ul>
  );
}

/** Enabled or disabled in words (the badge's colour only repeats it), and since when it fails. */
export function EndpointStatus({ endpoint }: { endpoint: Endpoint }) {
  return (
    <span className="status-cell">
      <span className={`status ${endpoint.status === 'enabled' ? 'active' : 'revoked'}`}>{endpointStatus(endpoint)}</span>
      {endpoint.failing_since === null ? null : (
        <span className="muted">
          Failing since <time dateTime={endpoint.failing_since}>{formatDateTime(endpoint.failing_since)}</time>
        </span>
      )}
    </span>
  );
}
