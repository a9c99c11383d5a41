// /developers: what a store's developers look at: its webhook endpoints, its connected platforms,
// and the requests its keys made in the last day. Read only, for every role.
import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQuery } from '../../api';
import { PRODUCT_NAME } from '../../navigation';
import { PlatformsSection } from './PlatformsSection';
import { RequestLogSection } from './RequestLogSection';
import { WebhookEndpointsSection } from './WebhookEndpointsSection';
import './developers.css';

export function DevelopersPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  return (
    <>
      <title>{`Developers · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Developers</h1>
      </div>
      <p className="lead">Your store&apos;s webhook endpoints, connected platforms and recent API requests.</p>
      <WebhookEndpointsSection />
      <PlatformsSection />
      <RequestLogSection />
    </>
  );
}
