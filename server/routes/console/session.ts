// Logging in and out of the console, and choosing a password through a setup link. Login is
// throttled per IP and per account, with one generic answer whatever failed (no account
// enumeration); the throttle counts in PostgreSQL, so every instance shares it.
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { consoleSessionContract } from '../../../contract/console/index.js';
import { csrfTokenOf, destroySession, openSession, type ConsoleSessionRecord } from '../../domain/console-sessions.js';
import { AppError } from '../../domain/errors.js';
import { changePassword, normalizedEmail, setPasswordWithToken, verifyLogin } from '../../domain/merchant-users.js';
import type { AppDeps } from '../../deps.js';
import { consoleOf, presentedSessionToken, setSessionCookie } from '../../http/console-session.js';

const s = initServer();

/**
 * Failed attempts allowed in 15 minutes, per IP and per account. Only failures count: an office
 * behind one address logs in as often as it likes, a guesser does not.
 */
export const LOGIN_FAILURES_PER_IP = 50;
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
const WINDOW_SECONDS = 15 * 60;
const LOGIN_REFUSED = 'Email or password is incorrect.';

const toSession = (session: ConsoleSessionRecord) => ({
  user: { id: session.user.id, email: session.user.email, role: session.user.role },
  store: session.store,
  csrf_token: csrfTokenOf(session.token),
  expires_at: session.expiresAt.toISOString(),
});

export function consoleSessionRouter({ db, clock, logger }: AppDeps) {
  const limiter = (keyPrefix: string, points: number) =>
    new RateLimiterPostgres({ storeClient: db.pool, storeType: 'pool', tableName: 'rate_limit_counters', tableCreated: true, keyPrefix, points, duration: WINDOW_SECONDS });
  const perIp = limiter('console_login_ip', LOGIN_FAILURES_PER_IP);
  const perAccount = limiter('console_login_account', LOGIN_FAILURES_PER_ACCOUNT);

  const ipOf = (req: Request) => req.ip ?? 'unknown';
  /** Refuses once the IP or the account has used up its failures. */
  async function admit(req: Request, account: string | null): Promise<void> {
    for (const [counter, key, allowed] of [
      [perIp, ipOf(req), LOGIN_FAILURES_PER_IP],
      ...(account === null ? [] : [[perAccount, account, LOGIN_FAILURES_PER_ACCOUNT] as const]),
    ] as const) {
      const used = await counter.get(key);
      if (used !== null && used.consumedPoints >= allowed) {
        throw new AppError('rate_limited', `Too many failed attempts; try again in ${Math.max(1, Math.ceil(used.msBeforeNext / 1000))} s.`);
      }
    }
  }
  /** Counts a failure against the IP and the account, then lets the error through. */
  async function failed(req: Request, account: string | null, error: unknown): Promise<never> {
    await perIp.penalty(ipOf(req), 1);
    if (account !== null) await perAccount.penalty(account, 1);
    throw error;
  }

  return s.router(consoleSessionContract, {
    current: async ({ req }) => ({ status: 200, body: toSession(consoleOf(req).session) }),
    login: async ({ body, req, res }) => {
      const account = normalizedEmail(body.email);
      await admit(req, account);
      const user = await verifyLogin(db, body.email, body.password);
      if (user === null) {
        logger.info({ component: 'console', request_id: req.requestId }, 'console login refused');
        return failed(req, account, new AppError('unauthorized', LOGIN_REFUSED));
      }
      await perAccount.delete(account);
      // A new session at every login; the browser's previous one ends (no fixation).
      const session = await openSession(db, user, clock.now(), presentedSessionToken(req));
      setSessionCookie(req, res, session);
      return { status: 200, body: toSession(session) };
    },
    logout: async ({ req, res }) => {
      await destroySession(db, consoleOf(req).session.token);
      setSessionCookie(req, res, null);
      return { status: 200, body: { logged_out: true as const } };
    },
    changePassword: async ({ body, req, res }) => {
      const { session } = consoleOf(req);
      await admit(req, session.user.email);
      const user = await changePassword(db, session.user, body.current_password, body.new_password, clock.now()).catch((error: unknown) => failed(req, session.user.email, error));
      const fresh = await openSession(db, user, clock.now());
      setSessionCookie(req, res, fresh);
      return { status: 200, body: toSession(fresh) };
    },
    setup: async ({ body, req, res }) => {
      await admit(req, null);
      const user = await setPasswordWithToken(db, body.token, body.password, clock.now()).catch((error: unknown) => failed(req, null, error));
      const session = await openSession(db, user, clock.now(), presentedSessionToken(req));
      setSessionCookie(req, res, session);
      return { status: 200, body: toSession(session) };
    },
  });
}
