// Logging in and out of the console, and choosing a password through a setup link (asked about
// first, so a spent link is said to be spent before the form is offered). Login is
// throttled per account and address, per address, and per account at a much higher ceiling, with
// one generic answer whatever failed (no account enumeration); the throttle counts in PostgreSQL,
// so every instance shares it.
import { initServer } from '@ts-rest/express';
import type { Request, Response } from 'express';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { consoleSessionContract } from '../../../contract/console/index.js';
import { changePassword, checkSetupToken, type ConsoleSessionRecord, csrfTokenOf, destroySession, normalizedEmail, openSession, setPasswordWithToken, verifyLogin } from '../../domain/access/index.js';
import { AppError } from '../../domain/kernel/index.js';

import type { AppDeps } from '../../deps.js';
import { consoleOf, presentedSessionToken, setSessionCookie } from '../../http/console-session.js';

const s = initServer();

/**
 * Failed attempts allowed in 15 minutes. Only failures count, and a guesser is slowed without the
 * rightful user being locked out: one address may fail 10 times for one account and 50 times in
 * all, while the account itself only stops at a ceiling ten times higher, which only a guesser
 * spread over many addresses reaches. Every refusal says when to retry (Retry-After).
 */
export const LOGIN_FAILURES_PER_ACCOUNT_AND_IP = 10;
export const LOGIN_FAILURES_PER_IP = 50;
export const LOGIN_FAILURES_PER_ACCOUNT = 100;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
const LOGIN_REFUSED = 'Email or password is incorrect.';

const toSession = (session: ConsoleSessionRecord) => ({
  user: { id: session.user.id, email: session.user.email, role: session.user.role },
  store: { id: session.store.id, slug: session.store.slug, name: session.store.name },
  csrf_token: csrfTokenOf(session.token),
  expires_at: session.expiresAt.toISOString(),
});

export function consoleSessionRouter({ db, clock, logger }: AppDeps) {
  const limiter = (keyPrefix: string, points: number) =>
    new RateLimiterPostgres({ storeClient: db.pool, storeType: 'pool', tableName: 'rate_limit_counters', tableCreated: true, keyPrefix, points, duration: LOGIN_WINDOW_SECONDS });
  const perAccountAndIp = limiter('console_login_account_ip', LOGIN_FAILURES_PER_ACCOUNT_AND_IP);
  const perIp = limiter('console_login_ip', LOGIN_FAILURES_PER_IP);
  const perAccount = limiter('console_login_account', LOGIN_FAILURES_PER_ACCOUNT);

  const ipOf = (req: Request) => req.ip ?? 'unknown';
  /** The counters a login attempt is held to, each with its key and allowance. */
  const countersOf = (req: Request, account: string | null) =>
    [
      [perIp, ipOf(req), LOGIN_FAILURES_PER_IP],
      ...(account === null
        ? []
        : ([
            [perAccountAndIp, `${account}|${ipOf(req)}`, LOGIN_FAILURES_PER_ACCOUNT_AND_IP],
            [perAccount, account, LOGIN_FAILURES_PER_ACCOUNT],
          ] as const)),
    ] as const;
  /** Refuses (429, with Retry-After) once a counter has used up its failures. */
  async function admit(req: Request, res: Response, account: string | null): Promise<void> {
    for (const [counter, key, allowed] of countersOf(req, account)) {
      const used = await counter.get(key);
      if (used !== null && used.consumedPoints >= allowed) {
        const retryAfter = Math.max(1, Math.ceil(used.msBeforeNext / 1000));
        res.setHeader('Retry-After', String(retryAfter));
        throw new AppError('rate_limited', `Too many failed attempts; try again in ${retryAfter} s.`);
      }
    }
  }
  /** Counts a failure against every counter, then lets the error through. */
  async function failed(req: Request, account: string | null, error: unknown): Promise<never> {
    for (const [counter, key] of countersOf(req, account)) await counter.penalty(key, 1);
    throw error;
  }

  return s.router(consoleSessionContract, {
    current: async ({ req }) => ({ status: 200, body: toSession(consoleOf(req).session) }),
    login: async ({ body, req, res }) => {
      const account = normalizedEmail(body.email);
      await admit(req, res, account);
      const user = await verifyLogin(db, body.email, body.password);
      if (user === null) {
        logger.info({ component: 'console', request_id: req.requestId }, 'console login refused');
        return failed(req, account, new AppError('unauthorized', LOGIN_REFUSED));
      }
      await Promise.all([perAccount.delete(account), perAccountAndIp.delete(`${account}|${ipOf(req)}`)]);
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
      await admit(req, res, session.user.email);
      const user = await changePassword(db, session.user, body.current_password, body.new_password, clock.now()).catch((error: unknown) => failed(req, session.user.email, error));
      const fresh = await openSession(db, user, clock.now());
      setSessionCookie(req, res, fresh);
      return { status: 200, body: toSession(fresh) };
    },
    checkSetup: async ({ body, req, res }) => {
      // Held to the setup's counter: each unknown token asked about is a failure, as at the setup.
      await admit(req, res, null);
      await checkSetupToken(db, body.token, clock.now()).catch((error: unknown) => failed(req, null, error));
      return { status: 200, body: { valid: true as const } };
    },
    setup: async ({ body, req, res }) => {
      await admit(req, res, null);
      const user = await setPasswordWithToken(db, body.token, body.password, clock.now()).catch((error: unknown) => failed(req, null, error));
      const session = await openSession(db, user, clock.now(), presentedSessionToken(req));
      setSessionCookie(req, res, session);
      return { status: 200, body: toSession(session) };
    },
  });
}
