// The last 24 hours of requests the store's keys made, newest first, a hundred at a time. The
// server keeps no header, query or body of them: nothing here can hold personal data.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { errorMessage } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { TableScroll } from '../../components/TableScroll';
import { formatDateTime } from '../../format';
import { requestLogQuery, type RequestLogLine } from './queries';

const MODE_LABEL: Record<RequestLogLine['mode'], string> = { live: 'Live', test: 'Test' };

export function RequestLogSection() {
  const log = useInfiniteQuery(requestLogQuery);
  const endRef = useRef<HTMLParagraphElement>(null);
  const lines = log.data?.pages.flatMap((page) => page.data) ?? [];

  const loadMore = async () => {
    const result = await log.fetchNextPage();
    // The button goes away with the last page: keep the keyboard's place on the line that says so.
    if (!result.hasNextPage) endRef.current?.focus();
  };

  return (
    <Section
      title="Request log"
      description="Requests made with your store's API keys in the last 24 hours, newest first. Only the method, path, status, duration and request id are kept: no headers, query strings, bodies or personal data."
    >
      {log.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the request log…
        </p>
      ) : log.isError && lines.length === 0 ? (
        <ErrorMessage message={`The request log could not be loaded: ${errorMessage(log.error)}`} />
      ) : lines.length === 0 ? (
        <p className="empty-state">No requests in the last 24 hours.</p>
      ) : (
        <>
          <TableScroll label="Request log">
            <RequestTable lines={lines} />
          </TableScroll>
          <ErrorMessage message={log.isFetchNextPageError ? `More requests could not be loaded: ${errorMessage(log.error)}` : undefined} />
          <div className="dev-more">
            <p className="muted dev-small" ref={endRef} tabIndex={-1} role="status">
              {log.hasNextPage ? `Showing the latest ${lines.length} requests.` : `Showing all ${lines.length} requests of the last 24 hours.`}
            </p>
            {log.hasNextPage ? (
              <button type="button" className="button secondary" onClick={() => void loadMore()} disabled={log.isFetchingNextPage}>
                {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            ) : null}
          </div>
        </>
      )}
    </Section>
  );
}

function RequestTable({ lines }: { lines: readonly RequestLogLine[] }) {
  return (
    <table className="table dev-table">
      <caption className="visually-hidden">Requests of the last 24 hours, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Mode</th>
          <th scope="col">Method</th>
          <th scope="col">Path</th>
          <th scope="col">Status</th>
          <th scope="col">Duration</th>
          <th scope="col">Request ID</th>
        </tr>
      </thead>
      <tbody>
        {/* A request id is the caller's to choose and may repeat: the position keys the row. */}
        {lines.map((line, index) => (
          <tr key={`${index}-${line.request_id}`}>
            <td data-label="Time">
              <time dateTime={line.at}>{formatDateTime(line.at)}</time>
            </td>
            <td data-label="Mode">
              <span className={`badge ${line.mode}`}>{MODE_LABEL[line.mode]}</span>
            </td>
            <td data-label="Method">
              <code>{line.method}</code>
            </td>
            <td data-label="Path">
              <code className="dev-url">{line.path}</code>
            </td>
            <td data-label="Status">
              <span className={line.status >= 400 ? 'dev-status-error' : undefined}>{line.status}</span>
            </td>
            <td data-label="Duration" className="dev-number">
              {line.duration_ms} ms
            </td>
            <td data-label="Request ID">
              <code className="dev-url">{line.request_id}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
