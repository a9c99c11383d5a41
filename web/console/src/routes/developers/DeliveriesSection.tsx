// An endpoint's deliveries (one event to this endpoint, with its attempts), newest first, 20 a page,
// paged like the console's other lists (the trail in the URL). Each row says how it went and when
// the next retry is due; "Details" shows every attempt with what came back, and "Resend" sends the
// event again with its id. A page holding a pending delivery is read again every second until none is.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type Ref } from 'react';
import { ApiError, api, bodyOf, errorMessage, pathParam } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { CursorPager, usePageFocus } from '../../components/CursorPager';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Facts, Section } from '../../components/Section';
import { TableScroll } from '../../components/TableScroll';
import { formatDateTime } from '../../format';
import { Truncated, When } from './EndpointParts';
import { attemptBrief, attemptResult, DELIVERY_STATUS_CLASS, DELIVERY_STATUS_LABEL } from './labels';
import { deliveriesQuery, endpointsQuery, refreshDeliveries, type Delivery, type Endpoint } from './queries';

const route = getRouteApi('/logged-in/developers/endpoints/$endpointId');

export function DeliveriesSection({ endpoint }: { endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const search = route.useSearch();
  const cursors = search.cursors ?? [];
  const page = useQuery(deliveriesQuery(endpoint.id, cursors.at(-1)));
  const pageNumber = cursors.length + 1;
  const [detailsOf, setDetailsOf] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const tableRef = usePageFocus(cursors, page.isSuccess);

  // A delivery that settles may change the endpoint: a success ends its failing streak, a delivery
  // whose retries are used up disables it. The endpoint is read again when one does.
  const pending = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const shown = page.data?.data;
    if (shown === undefined) return;
    const settled = shown.some((delivery) => delivery.status !== 'pending' && pending.current.has(delivery.id));
    pending.current = new Set(shown.filter((delivery) => delivery.status === 'pending').map((delivery) => delivery.id));
    if (settled) void queryClient.invalidateQueries({ queryKey: endpointsQuery.queryKey });
  }, [page.data, queryClient]);

  const resend = useMutation({
    mutationFn: async (delivery: Delivery) =>
      bodyOf(await api.developers.resendEvent({ params: { id: pathParam(endpoint.id) }, body: { event_id: delivery.event_id } }), 202),
    onSuccess: async (queued) => {
      setSaid(`Event ${queued.event_id} was sent again, with the same id. Its new delivery heads the first page.`);
      await refreshDeliveries(queryClient, endpoint.id);
    },
  });

  const deliveries = page.data?.data ?? [];
  const last = deliveries.at(-1);
  const details = detailsOf === null ? undefined : deliveries.find((delivery) => delivery.id === detailsOf);
  const enabled = endpoint.status === 'enabled';
  // A trail the server no longer takes (an edited address, a delivery deleted with its endpoint).
  const badTrail = page.error instanceof ApiError && page.error.status === 400 && page.error.fieldErrors.some((item) => item.field === 'starting_after');

  return (
    <Section
      title="Deliveries"
      description="Each event sent to this endpoint, newest first, 20 a page. A failed attempt is retried on a schedule of growing waits; Details shows every attempt and what your receiver answered."
    >
      {enabled ? null : <p className="muted dev-small">Enable the endpoint to resend an event.</p>}
      <p className="dev-said dev-wrap" role="status">
        {said}
      </p>
      <ErrorMessage message={resend.isError ? `The event could not be sent again: ${errorMessage(resend.error)}` : undefined} />
      {page.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the deliveries…
        </p>
      ) : badTrail ? (
        <div className="empty-state">
          <p>This page of deliveries cannot be shown: its link is not one the list made.</p>
          <Link to="/developers/endpoints/$endpointId" params={{ endpointId: endpoint.id }} search={{}}>
            Go to the first page of deliveries
          </Link>
        </div>
      ) : page.isError ? (
        <ErrorMessage message={`The deliveries could not be loaded: ${errorMessage(page.error)}`} />
      ) : (
        <>
          {deliveries.length === 0 ? (
            <p className="empty-state">
              {pageNumber > 1 ? 'No older deliveries.' : 'No deliveries yet. Each event of a type this endpoint receives shows here, with its attempts.'}
            </p>
          ) : (
            <TableScroll label="Deliveries">
              <DeliveryTable
                ref={tableRef}
                deliveries={deliveries}
                caption={`Deliveries, newest first, page ${pageNumber}`}
                mayResend={enabled}
                resending={resend.isPending ? resend.variables?.id : undefined}
                onResend={(delivery) => {
                  setSaid('');
                  resend.mutate(delivery);
                }}
                onDetails={(delivery) => setDetailsOf(delivery.id)}
              />
            </TableScroll>
          )}
          <CursorPager
            label="Pages of deliveries"
            cursors={cursors}
            nextCursor={page.data.has_more && last !== undefined ? last.id : null}
            link={(pages, text) => (
              <Link
                to="/developers/endpoints/$endpointId"
                params={{ endpointId: endpoint.id }}
                search={pages === undefined ? {} : { cursors: pages }}
                className="button secondary"
                resetScroll={false}
              >
                {text}
              </Link>
            )}
          />
        </>
      )}
      <DeliveryDialog delivery={details} onClose={() => setDetailsOf(null)} />
    </Section>
  );
}

interface DeliveryTableProps {
  deliveries: readonly Delivery[];
  caption: string;
  mayResend: boolean;
  /** The delivery whose event is being sent again, if one is. */
  resending: string | undefined;
  onResend: (delivery: Delivery) => void;
  onDetails: (delivery: Delivery) => void;
  ref: Ref<HTMLTableElement>;
}

function DeliveryTable({ deliveries, caption, mayResend, resending, onResend, onDetails, ref }: DeliveryTableProps) {
  return (
    <table className="table dev-table dev-deliveries" ref={ref} tabIndex={-1}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col" className="dev-col-time">
            Queued
          </th>
          <th scope="col" className="dev-col-result">
            Status
          </th>
          <th scope="col" className="dev-col-time">
            Next retry
          </th>
          <th scope="col" className="dev-col-buttons">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => {
          const latest = delivery.attempts[0];
          return (
            <tr key={delivery.id}>
              <td data-label="Event">
                <span className="dev-stack">
                  <Truncated value={delivery.event_type} code />
                  <Truncated value={delivery.event_id} code className="muted dev-small" />
                </span>
              </td>
              <td data-label="Queued">
                <When iso={delivery.created_on} />
              </td>
              <td data-label="Status">
                <span className="dev-stack">
                  <span className={`status ${DELIVERY_STATUS_CLASS[delivery.status]}`}>{DELIVERY_STATUS_LABEL[delivery.status]}</span>
                  <span className="muted dev-small">
                    {latest === undefined ? 'Not attempted yet' : `Attempt ${delivery.attempt_count}: ${attemptBrief(latest)}`}
                  </span>
                </span>
              </td>
              <td data-label="Next retry">
                <NextRetry delivery={delivery} />
              </td>
              <td className="row-actions">
                <span className="dev-row-buttons">
                  <button type="button" className="button secondary small" onClick={() => onDetails(delivery)}>
                    Details<span className="visually-hidden"> of the delivery of {delivery.event_id}</span>
                  </button>
                  {mayResend ? (
                    <button type="button" className="button secondary small" onClick={() => onResend(delivery)} disabled={resending !== undefined}>
                      {resending === delivery.id ? 'Resending…' : 'Resend'}
                      <span className="visually-hidden"> {delivery.event_id}</span>
                    </button>
                  ) : null}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function NextRetry({ delivery }: { delivery: Delivery }) {
  const next = delivery.next_attempt_on;
  if (next !== null) return <When iso={next} />;
  if (delivery.status === 'failed') return <span>None: retries used up</span>;
  return <span className="muted">None</span>;
}

/** One delivery whole: the event's id unabridged, and every attempt with what the receiver answered. */
function DeliveryDialog({ delivery, onClose }: { delivery: Delivery | undefined; onClose: () => void }) {
  const id = useId();
  return (
    <Dialog open={delivery !== undefined} onClose={onClose} labelledBy={`${id}-title`}>
      {delivery === undefined ? null : (
        <div className="dialog-body">
          <h2 id={`${id}-title`}>
            Delivery of <code className="dev-wrap">{delivery.event_type}</code>
          </h2>
          <Facts
            items={[
              [
                'Event ID',
                <span className="dev-stack">
                  <code className="dev-wrap" id={`${id}-event`}>
                    {delivery.event_id}
                  </code>
                  <CopyButton text={delivery.event_id} targetId={`${id}-event`} what="the event ID" />
                </span>,
              ],
              ['Status', <span className={`status ${DELIVERY_STATUS_CLASS[delivery.status]}`}>{DELIVERY_STATUS_LABEL[delivery.status]}</span>],
              ['Queued', <time dateTime={delivery.created_on}>{formatDateTime(delivery.created_on)}</time>],
              ['Next retry', <NextRetry delivery={delivery} />],
              ['Delivery ID', <code className="dev-wrap">{delivery.id}</code>],
            ]}
          />
          <h3 className="dev-attempts-title">Attempts, newest first</h3>
          {delivery.attempts.length === 0 ? (
            <p className="muted">Not attempted yet.</p>
          ) : (
            <ul className="dev-attempts">
              {delivery.attempts.map((attempt, index) => (
                <li key={attempt.attempted_on + String(index)}>
                  <p className="dev-attempt-line">
                    <strong>{`Attempt ${delivery.attempts.length - index}`}</strong>
                    <span className={`status ${attempt.succeeded ? 'active' : 'revoked'}`}>{attemptResult(attempt)}</span>
                    <time dateTime={attempt.attempted_on}>{formatDateTime(attempt.attempted_on)}</time>
                    <span className="muted">{attempt.duration_ms} ms</span>
                  </p>
                  {attempt.response_body === null || attempt.response_body === '' ? null : (
                    <>
                      <p className="muted dev-small dev-response-label">Your receiver answered:</p>
                      <pre className="dev-response">{attempt.response_body}</pre>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          <div className="dialog-actions">
            <button type="button" className="button primary" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
