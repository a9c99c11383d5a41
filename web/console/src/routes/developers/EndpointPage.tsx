// /developers/endpoints/$endpointId: one webhook endpoint, managed (edit, disable and enable, rotate
// its secret, delete), a test event sent to it, and its deliveries a page at a time with a resend.
// Owners and admins only, as every route it calls.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { errorMessage, sessionQuery } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { PRODUCT_NAME } from '../../navigation';
import { DeliveriesSection } from './DeliveriesSection';
import { EndpointSection } from './EndpointActions';
import { OwnersAndAdminsOnly } from './EndpointParts';
import { endpointsQuery, mayUseDevelopers } from './queries';
import { TestEventSection } from './TestEventSection';
import './developers.css';

const route = getRouteApi('/logged-in/developers/endpoints/$endpointId');

export function EndpointPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const role = session?.user.role ?? 'viewer';
  const allowed = mayUseDevelopers(role);
  return (
    <>
      <nav aria-label="Breadcrumb" className="dev-breadcrumb">
        <ol>
          <li>
            <Link to="/developers">Developers</Link>
          </li>
          <li aria-current="page">Webhook endpoint</li>
        </ol>
      </nav>
      {allowed ? (
        <EndpointView storeName={session?.store.name ?? ''} />
      ) : (
        <>
          <title>{`Webhook endpoint · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
          <div className="page-header">
            <h1>Webhook endpoint</h1>
          </div>
          <OwnersAndAdminsOnly role={role} />
        </>
      )}
    </>
  );
}

function EndpointView({ storeName }: { storeName: string }) {
  const { endpointId } = route.useParams();
  const endpoints = useQuery(endpointsQuery);
  const endpoint = endpoints.data?.find((candidate) => candidate.id === endpointId);
  return (
    <>
      <title>{`Webhook endpoint${endpoint === undefined ? '' : ` ${endpoint.url}`} · ${storeName} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Webhook endpoint</h1>
      </div>
      {endpoints.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the endpoint…
        </p>
      ) : endpoints.isError ? (
        <ErrorMessage message={`The endpoint could not be loaded: ${errorMessage(endpoints.error)}`} />
      ) : endpoint === undefined ? (
        <p className="empty-state">
          Your store has no webhook endpoint with this id. <Link to="/developers">See your endpoints</Link>.
        </p>
      ) : (
        <>
          <EndpointSection endpoint={endpoint} />
          <TestEventSection endpoint={endpoint} />
          <DeliveriesSection endpoint={endpoint} />
        </>
      )}
    </>
  );
}
