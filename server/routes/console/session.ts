// Logging in and out of the console, and choosing a password through a setup link. Login is
// throttled per IP and per account, with one generic answer whatever failed (no account
// enumeration); the throttle counts in PostgreSQL, so every instance shares it.
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { consoleSessionContract } from '../../../contract/console/index.js';
import { csrfTokenOf, destroySession, openSession, type ConsoleSessionRecord } from '../../domain/console-sessions.js';
import { AppError } from '../../domain/errors.js';
import { normalizedEmail, setPasswordWithToken, verifyLogin } from '../../domain/merchant-users.js';
import type { AppDeps } from '../../deps.js';
import { consoleOf, presentedSessionToken, setSessionCookie } from '../../http/console-session.js';

const s = initServer();

/** Attempts per IP, and failed attempts per account, in 15 minutes. */
export const LOGIN_ATTEMPTS_PER_IP = 30;
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
  const perIp = limiter('console_login_ip', LOGIN_ATTEMPTS_PER_IP);
  const perAccount = limiter('console_login_account', LOGIN_FAILURES_PER_ACCOUNT);

  const throttled = (refusal: RateLimiterRes) =>
    new AppError('rate_limited', `Too many login attempts; try again in ${Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))} s.`);
  /** Counts one attempt from the IP; refuses once the IP or the account has used its allowance. */
  async function admit(req: Request, account: string): Promise<void> {
    try {
      await perIp.consume(req.ip ?? 'unknown');
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) throw throttled(refusal);
      throw refusal;
    }
    const failures = await perAccount.get(account);
    if (failures !== null && failures.consumedPoints >= LOGIN_FAILURES_PER_ACCOUNT) throw throttled(failures);
  }

  return s.router(consoleSessionContract, {
    current: async ({ req }) => ({ status: 200, body: toSession(consoleOf(req).session) }),
    login: async ({ body, req, res }) => {
      const account = normalizedEmail(body.email);
      await admit(req, account);
      const user = await verifyLogin(db, body.email, body.password);
      if (user === null) {
        await perAccount.penalty(account, 1);
        logger.info({ component: 'console', request_id: req.requestId }, 'console login refused');
        throw new AppError('unauthorized', LOGIN_REFUSED);
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
    setup: async ({ body, req, res }) => {
      await admit(req, 'setup');
      const user = await setPasswordWithToken(db, body.token, body.password, clock.now());
      const session = await openSession(db, user, clock.now(), presentedSessionToken(req));
      setSessionCookie(req, res, session);
      return { status: 200, body: toSession(session) };
    },
  });
}
