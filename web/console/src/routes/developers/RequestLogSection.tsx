// The last 24 hours of requests the store's keys made, newest first, 50 a page, paged like the
// console's other lists (the trail of cursors in the URL: Back and a reload keep the page). The
// server keeps no header, query or body of them: nothing here can hold personal data.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Ref } from 'react';
import { REQUEST_LOG_PAGE_LIMIT } from '../../../../../contract/console/developers.js';
import { CursorPager, usePageFocus } from '../../components/CursorPager';
import { ListLoadError } from '../../components/ListLoadError';
import { Section } from '../../components/Section';
import { TableScroll } from '../../components/TableScroll';
import { Truncated, When } from './EndpointParts';
import { requestLogQuery, type RequestLogLine } from './queries';
import '../../components/compact-table.css';

const route = getRouteApi('/logged-in/developers');
const MODE_LABEL: Record<RequestLogLine['mode'], string> = { live: 'Live', test: 'Test' };

export function RequestLogSection() {
  const search = route.useSearch();
  const cursors = search.log ?? [];
  const log = useQuery(requestLogQuery(cursors.at(-1)));
  const pageNumber = cursors.length + 1;
  const tableRef = usePageFocus(cursors, log.isSuccess);
  const lines = log.data?.data ?? [];

  return (
    <Section
      title="Request log"
      description={`Requests made with your store's API keys in the last 24 hours, newest first, ${REQUEST_LOG_PAGE_LIMIT} a page. Only the method, path, status, duration and request id are kept: no headers, query strings, bodies or personal data.`}
    >
      <p className="visually-hidden" role="status">
        {log.isSuccess && lines.length > 0 ? `Request log page ${pageNumber}: ${lines.length} requests.` : ''}
      </p>
      {log.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the request log…
        </p>
      ) : log.isError ? (
        <ListLoadError
          error={log.error}
          what="the request log"
          firstPage={
            <Link to="/developers" search={{}}>
              Go to the first page of the request log
            </Link>
          }
        />
      ) : (
        <>
          {lines.length === 0 ? (
            <p className="empty-state">{pageNumber > 1 ? 'No older requests in the last 24 hours.' : 'No requests in the last 24 hours.'}</p>
          ) : (
            <TableScroll label="Request log">
              <RequestTable ref={tableRef} lines={lines} caption={`Requests of the last 24 hours, newest first, page ${pageNumber}`} />
            </TableScroll>
          )}
          <CursorPager
            label="Pages of the request log"
            cursors={cursors}
            nextCursor={log.data.next_cursor}
            link={(pages, text) => (
              <Link to="/developers" search={pages === undefined ? {} : { log: pages }} className="button secondary" resetScroll={false}>
                {text}
              </Link>
            )}
          />
        </>
      )}
    </Section>
  );
}

function RequestTable({ lines, caption, ref }: { lines: readonly RequestLogLine[]; caption: string; ref: Ref<HTMLTableElement> }) {
  return (
    <table className="compact-table dev-log" ref={ref} tabIndex={-1}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="dev-col-logtime">
            Time
          </th>
          <th scope="col" className="dev-col-mode">
            Mode
          </th>
          <th scope="col" className="dev-col-method">
            Method
          </th>
          <th scope="col">Path</th>
          <th scope="col" className="dev-col-code">
            Status
          </th>
          <th scope="col" className="dev-col-duration">
            Duration
          </th>
          <th scope="col" className="dev-col-request">
            Request ID
          </th>
        </tr>
      </thead>
      <tbody>
        {/* A request id is the caller's to choose and may repeat: the position keys the row. */}
        {lines.map((line, index) => (
          <tr key={`${index}-${line.request_id}`}>
            <td>
              <When iso={line.at} />
            </td>
            <td>
              <span className={`badge ${line.mode}`}>{MODE_LABEL[line.mode]}</span>
            </td>
            <td>
              <code>{line.method}</code>
            </td>
            <td>
              <Truncated value={line.path} code />
            </td>
            <td className="number">
              <span className={line.status >= 400 ? 'dev-status-error' : undefined}>{line.status}</span>
            </td>
            <td className="number">{line.duration_ms} ms</td>
            <td>
              <Truncated value={line.request_id} code />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
