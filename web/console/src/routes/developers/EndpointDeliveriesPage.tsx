// /developers/endpoints/$endpointId: one webhook endpoint and every attempt of its latest
// deliveries, newest first, a page at a time: what was sent, what came back, and when the next try
// is due.
import { useInfiniteQuery, useQuery, useSuspenseQuery, type UseInfiniteQueryResult, type InfiniteData } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useRef } from 'react';
import { ApiError, errorMessage, sessionQuery } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Facts, Section } from '../../components/Section';
import { TableScroll } from '../../components/TableScroll';
import { formatDateTime } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { EndpointStatus, EventTypes } from './EndpointParts';
import { attemptResult, disabledNote } from './labels';
import { deliveriesQuery, endpointsQuery, type DeliveriesPage, type Delivery, type Endpoint } from './queries';
import './developers.css';

const route = getRouteApi('/logged-in/developers/endpoints/$endpointId');

export function EndpointDeliveriesPage() {
  const { endpointId } = route.useParams();
  const { data: session } = useSuspenseQuery(sessionQuery);
  const endpoints = useQuery(endpointsQuery);
  const deliveries = useInfiniteQuery(deliveriesQuery(endpointId));
  const endpoint = endpoints.data?.find((candidate) => candidate.id === endpointId);
  // The server answers 404 for an endpoint of another store or none, 400 for an id no endpoint can have.
  const unknown = (endpoints.isSuccess && endpoint === undefined) || (deliveries.error instanceof ApiError && [400, 404].includes(deliveries.error.status));

  return (
    <>
      <title>{`Deliveries of ${endpoint?.url ?? 'a webhook endpoint'} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <nav aria-label="Breadcrumb" className="dev-breadcrumb">
        <ol>
          <li>
            <Link to="/developers">Developers</Link>
          </li>
          <li aria-current="page">Webhook deliveries</li>
        </ol>
      </nav>
      <div className="page-header">
        <h1>Webhook deliveries</h1>
      </div>
      {unknown ? (
        <p className="empty-state">
          Your store has no webhook endpoint with this id. <Link to="/developers">See your endpoints</Link>.
        </p>
      ) : (
        <>
          <EndpointSummarySection endpoint={endpoint} loading={endpoints.isPending} error={endpoints.error} />
          <DeliveryAttemptsSection deliveries={deliveries} />
        </>
      )}
    </>
  );
}

interface SummaryProps {
  endpoint: Endpoint | undefined;
  loading: boolean;
  error: Error | null;
}

function EndpointSummarySection({ endpoint, loading, error }: SummaryProps) {
  const note = endpoint === undefined ? null : disabledNote(endpoint);
  return (
    <Section title="Endpoint">
      {loading ? (
        <p className="muted" aria-live="polite">
          Loading the endpoint…
        </p>
      ) : error !== null ? (
        <ErrorMessage message={`The endpoint could not be loaded: ${errorMessage(error)}`} />
      ) : endpoint === undefined ? null : (
        <>
          <Facts
            items={[
              ['URL', endpoint.url],
              ...(endpoint.description === null ? [] : ([['Description', endpoint.description]] as const)),
              ['Events', <EventTypes endpoint={endpoint} />],
              ['Status', <EndpointStatus endpoint={endpoint} />],
              ['Created', <time dateTime={endpoint.created_on}>{formatDateTime(endpoint.created_on)}</time>],
              ['Id', <code>{endpoint.id}</code>],
            ]}
          />
          {note === null ? null : <p className="notice dev-note">{note}</p>}
        </>
      )}
    </Section>
  );
}

/** One line of the table: an attempt, or a delivery not attempted yet. */
interface AttemptRow {
  delivery: Delivery;
  attempt: Delivery['attempts'][number] | null;
  /** 1 for the first attempt; 0 for a delivery not attempted yet. */
  number: number;
  /** The delivery's latest attempt (or its only row): where its next retry is shown. */
  latest: boolean;
  at: string;
}

function attemptRows(deliveries: readonly Delivery[]): AttemptRow[] {
  const rows = deliveries.flatMap((delivery): AttemptRow[] =>
    delivery.attempts.length === 0
      ? [{ delivery, attempt: null, number: 0, latest: true, at: delivery.created_on }]
      : // The API lists a delivery's attempts newest first.
        delivery.attempts.map((attempt, index) => ({ delivery, attempt, number: delivery.attempts.length - index, latest: index === 0, at: attempt.attempted_on })),
  );
  // Every attempt newest first, across deliveries: a retry of an older event can be the latest thing that happened.
  return rows.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

function DeliveryAttemptsSection({ deliveries }: { deliveries: UseInfiniteQueryResult<InfiniteData<DeliveriesPage>> }) {
  const endRef = useRef<HTMLParagraphElement>(null);
  const loaded = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  const loadMore = async () => {
    const result = await deliveries.fetchNextPage();
    // The button goes away with the last page: keep the keyboard's place on the line that says so.
    if (!result.hasNextPage) endRef.current?.focus();
  };
  return (
    <Section title="Attempts" description="Every attempt to deliver an event to this endpoint, newest first. A failed attempt is retried on a schedule of growing waits.">
      {deliveries.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the deliveries…
        </p>
      ) : deliveries.isError && loaded.length === 0 ? (
        <ErrorMessage message={`The deliveries could not be loaded: ${errorMessage(deliveries.error)}`} />
      ) : loaded.length === 0 ? (
        <p className="empty-state">No deliveries yet. Each event of a type this endpoint receives will show here with its attempts.</p>
      ) : (
        <>
          <TableScroll label="Delivery attempts">
            <AttemptTable rows={attemptRows(loaded)} />
          </TableScroll>
          <ErrorMessage message={deliveries.isFetchNextPageError ? `Older deliveries could not be loaded: ${errorMessage(deliveries.error)}` : undefined} />
          <div className="dev-more">
            <p className="muted dev-small" ref={endRef} tabIndex={-1} role="status">
              {deliveries.hasNextPage ? `The attempts of the latest ${loaded.length} deliveries.` : `The attempts of all ${loaded.length} deliveries.`}
            </p>
            {deliveries.hasNextPage ? (
              <button type="button" className="button secondary" onClick={() => void loadMore()} disabled={deliveries.isFetchingNextPage}>
                {deliveries.isFetchingNextPage ? 'Loading…' : 'Load older deliveries'}
              </button>
            ) : null}
          </div>
        </>
      )}
    </Section>
  );
}

function NextRetry({ row }: { row: AttemptRow }) {
  if (!row.latest) return <span className="muted">Retried</span>;
  const next = row.delivery.next_attempt_on;
  if (next !== null) return <time dateTime={next}>{formatDateTime(next)}</time>;
  if (row.delivery.status === 'failed') return <span>None: retries used up</span>;
  return <span className="muted">None</span>;
}

function AttemptTable({ rows }: { rows: readonly AttemptRow[] }) {
  return (
    <table className="table dev-table">
      <caption className="visually-hidden">Delivery attempts, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Event type</th>
          <th scope="col">Event ID</th>
          <th scope="col">Attempt</th>
          <th scope="col">Result</th>
          <th scope="col">Next retry</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.delivery.id}-${row.number}`}>
            <td data-label="Time">
              <time dateTime={row.at}>{formatDateTime(row.at)}</time>
            </td>
            <td data-label="Event type">
              <code>{row.delivery.event_type}</code>
            </td>
            <td data-label="Event ID">
              <code className="dev-url">{row.delivery.event_id}</code>
            </td>
            <td data-label="Attempt" className="dev-number">
              {row.attempt === null ? <span className="muted">Not yet</span> : row.number}
            </td>
            <td data-label="Result">
              {row.attempt === null ? (
                <span className="muted">Queued</span>
              ) : (
                <span className={`status dev-result ${row.attempt.succeeded ? 'active' : 'revoked'}`}>{attemptResult(row.attempt)}</span>
              )}
            </td>
            <td data-label="Next retry">
              <NextRetry row={row} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
