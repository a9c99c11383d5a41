// The commerce platforms connected to the store (the operator connects them), each with the URL its
// signed webhooks go to.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { errorMessage } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { TableScroll } from '../../components/TableScroll';
import { Truncated, When } from './EndpointParts';
import { platformsQuery, type Platform } from './queries';

export function PlatformsSection() {
  const id = useId();
  const platforms = useQuery(platformsQuery);
  return (
    <Section title="Platform connections" description="Commerce platforms that send your store's orders, fulfilments and refunds to this service as signed webhooks.">
      {platforms.isPending ? (
        <p className="muted" aria-live="polite">
          Loading platform connections…
        </p>
      ) : platforms.isError ? (
        <ErrorMessage message={`The platform connections could not be loaded: ${errorMessage(platforms.error)}`} />
      ) : platforms.data.length === 0 ? (
        <p className="empty-state">No platform is connected to this store. Your operator connects one.</p>
      ) : (
        <TableScroll label="Connected platforms">
          <PlatformTable platforms={platforms.data} idPrefix={id} />
        </TableScroll>
      )}
    </Section>
  );
}

function PlatformTable({ platforms, idPrefix }: { platforms: readonly Platform[]; idPrefix: string }) {
  // The platform posts to this service's own origin: the one the console is served from.
  const origin = window.location.origin;
  return (
    <table className="table dev-table dev-platforms">
      <caption className="visually-hidden">Connected platforms, oldest connection first</caption>
      <thead>
        <tr>
          <th scope="col" className="dev-col-platform">
            Platform
          </th>
          <th scope="col" className="dev-col-time">
            Connected since
          </th>
          <th scope="col">Webhook URL</th>
        </tr>
      </thead>
      <tbody>
        {platforms.map((platform) => {
          const urlId = `${idPrefix}-${platform.slug}-url`;
          const url = `${origin}${platform.webhook_path}`;
          return (
            <tr key={platform.slug}>
              <td data-label="Platform">
                <Truncated value={platform.slug} code />
              </td>
              <td data-label="Connected since">
                <When iso={platform.connected_at} />
              </td>
              <td data-label="Webhook URL" className="dev-cell-block">
                <span className="dev-inline">
                  <Truncated value={url} code className="dev-platform-url" id={urlId} />
                  <CopyButton text={url} targetId={urlId} what={`the webhook URL of ${platform.slug}`} />
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
