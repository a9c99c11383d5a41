// /developers: where a store's owners and admins manage its webhook endpoints (add one here; each
// is managed on its own page), see its connected platforms, and page through the requests its keys
// made in the last day. A viewer is told the page is not theirs, and nothing is asked of the server.
import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQuery } from '../../api';
import { PRODUCT_NAME } from '../../navigation';
import { OwnersAndAdminsOnly } from './EndpointParts';
import { PlatformsSection } from './PlatformsSection';
import { mayUseDevelopers } from './queries';
import { RequestLogSection } from './RequestLogSection';
import { WebhookEndpointsSection } from './WebhookEndpointsSection';
import './developers.css';

export function DevelopersPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const role = session?.user.role ?? 'viewer';
  return (
    <>
      <title>{`Developers · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Developers</h1>
      </div>
      {mayUseDevelopers(role) ? (
        <>
          <p className="lead">Your store&apos;s webhook endpoints, connected platforms and recent API requests.</p>
          <WebhookEndpointsSection />
          <PlatformsSection />
          <RequestLogSection />
        </>
      ) : (
        <OwnersAndAdminsOnly role={role} />
      )}
    </>
  );
}
