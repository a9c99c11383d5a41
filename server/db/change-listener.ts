// One LISTEN connection to PostgreSQL for a notification channel, kept open: what lets an in-memory
// cache on each of several instances learn of a committed change in milliseconds. While the
// connection is down a notification could be missed, so `listening` is false from the moment it
// drops until LISTEN is back (and the owner is told, to forget what it cached meanwhile).
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface ChangeListener {
  /** True only while notifications are certain to arrive. */
  readonly listening: boolean;
  /**
   * Resolves once every change committed before the call has been seen here (a marker sent on the
   * channel now arrives after them: PostgreSQL delivers notifications in commit order). Resolves at
   * once when not listening, as nothing is served from a cache then.
   */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

export interface ChangeListenerOptions {
  databaseUrl: string;
  channel: string;
  /** A change was committed, or the connection came back (changes may have been missed). */
  onChange: () => void;
  /** Told of a dropped connection, with no detail that could hold a credential. */
  onDisconnect?: (reconnectInMs: number) => void;
}

const SYNC_PREFIX = 'sync:';
const MAX_BACKOFF_MS = 5_000;

export function startChangeListener(options: ChangeListenerOptions): Promise<ChangeListener> {
  const { databaseUrl, channel, onChange } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name "${channel}"`);
  let client: pg.Client | null = null;
  let listening = false;
  let stopped = false;
  let backoffMs = 100;
  let retryTimer: NodeJS.Timeout | undefined;
  const waiters = new Map<string, () => void>();

  const releaseWaiters = () => {
    for (const resolve of waiters.values()) resolve();
    waiters.clear();
  };

  const dropped = (current: pg.Client) => {
    if (client !== current) return;
    client = null;
    listening = false;
    // Anything cached may now miss a change: the owner forgets it, and caches nothing until back.
    onChange();
    releaseWaiters();
    current.removeAllListeners();
    current.on('error', () => {});
    void current.end().catch(() => {});
    if (stopped) return;
    options.onDisconnect?.(backoffMs);
    retryTimer = setTimeout(() => void connect().catch(() => {}), backoffMs);
    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
  };

  const connect = async (): Promise<void> => {
    const current = new pg.Client({ connectionString: databaseUrl, application_name: 'order-protection-changes' });
    client = current;
    current.on('error', () => dropped(current));
    current.on('end', () => dropped(current));
    current.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (payload.startsWith(SYNC_PREFIX)) {
        const token = payload.slice(SYNC_PREFIX.length);
        waiters.get(token)?.();
        waiters.delete(token);
        return;
      }
      onChange();
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
    } catch (error) {
      dropped(current);
      throw error;
    }
    if (client !== current || stopped) return;
    // Whatever changed while nobody listened is unknown: start from nothing.
    onChange();
    listening = true;
    backoffMs = 100;
  };

  const listener: ChangeListener = {
    get listening() {
      return listening;
    },
    sync: async () => {
      if (!listening || client === null) return;
      const token = randomUUID();
      const seen = new Promise<void>((resolve) => waiters.set(token, resolve));
      // Sent from another session than the listener's, as a committed change would be.
      const sender = new pg.Client({ connectionString: databaseUrl, application_name: 'order-protection-changes' });
      // A connection that dies under the query rejects it; the event that comes with it is not news.
      sender.on('error', () => {});
      try {
        await sender.connect();
        await sender.query('SELECT pg_notify($1, $2)', [channel, `${SYNC_PREFIX}${token}`]);
      } finally {
        await sender.end().catch(() => {});
      }
      await seen;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(retryTimer);
      listening = false;
      releaseWaiters();
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners();
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
  // The first connection must succeed: a server that cannot reach its database does not start.
  return connect().then(
    () => listener,
    async (error: unknown) => {
      await listener.stop();
      throw error;
    },
  );
}
