// Pieces shown on both developers pages: a long value cut to its column, the event types an endpoint
// receives, its status, and what a viewer is told instead of the pages.
import type { ReactNode } from 'react';
import { endpointStatus, receivesAll } from './labels';
import type { Endpoint } from './queries';

/**
 * A URL or an id on one line, cut with an ellipsis where its column ends; the whole value is its
 * title (on hover) and, for a screen reader, its text. Each table also shows it whole elsewhere: an
 * endpoint's page, a delivery's details.
 */
export function Truncated({ value, code = false, className, id }: { value: string; code?: boolean; className?: string; id?: string }) {
  const classes = ['dev-truncate', className].filter(Boolean).join(' ');
  return code ? (
    <code className={classes} title={value} id={id}>
      {value}
    </code>
  ) : (
    <span className={classes} title={value} id={id}>
      {value}
    </span>
  );
}

// The console's format (format.ts's formatDateTime), in parts: the line may break between the day
// and the time, never inside either, so a narrow column wraps a date rather than cut it.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An instant as formatDateTime writes it, which wraps between its day and its time when its column is narrow. */
export function When({ iso }: { iso: string }) {
  const parts = dateTime.formatToParts(new Date(iso));
  const hour = parts.findIndex((part) => part.type === 'hour');
  if (hour <= 0) return <time dateTime={iso}>{dateTime.format(new Date(iso))}</time>;
  const day = parts.slice(0, hour).map((part) => part.value).join('');
  const time = parts.slice(hour).map((part) => part.value).join('');
  const dayText = day.trimEnd();
  return (
    <time dateTime={iso} className="dev-when">
      <span>{dayText}</span>
      {day.slice(dayText.length)}
      <span>{time}</span>
    </time>
  );
}

/** The event types an endpoint receives: all of them in words, or the first `limit` and how many more. */
export function EventTypes({ endpoint, limit }: { endpoint: Pick<Endpoint, 'events'>; limit?: number }) {
  if (receivesAll(endpoint)) return <span>All events</span>;
  const shown = limit === undefined ? endpoint.events : endpoint.events.slice(0, limit);
  const hidden = endpoint.events.length - shown.length;
  return (
    <ul className="dev-event-list" title={hidden > 0 ? endpoint.events.join(', ') : undefined}>
      {shown.map((type) => (
        <li key={type}>
          <Truncated value={type} code />
        </li>
      ))}
      {hidden > 0 ? <li className="muted dev-small">{`and ${hidden} more`}</li> : null}
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
          Failing since <When iso={endpoint.failing_since} />
        </span>
      )}
    </span>
  );
}

/**
 * What a viewer sees instead of a developers page: the server refuses them every part of it (403),
 * so the page says so plainly rather than asking and showing errors.
 */
export function OwnersAndAdminsOnly({ role }: { role: string }): ReactNode {
  return (
    <p className="notice">
      The Developers page is for owners and admins: it holds your store&apos;s webhook endpoints, their signing secrets and the requests made with
      your API keys. Your role ({role}) cannot open it; ask an owner or an admin if you need something from it.
    </p>
  );
}
