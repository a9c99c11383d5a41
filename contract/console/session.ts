// The console's session: log in with email and password, read who is logged in (and the CSRF
// token every change must carry), log out, and choose a password through a one-time setup link
// (first asking whether the link still works).
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string, text } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';

const c = initContract();

/** The header every console change carries: the session's CSRF token. */
export const CSRF_HEADER = 'X-CSRF-Token';
/** The session cookie: HttpOnly, SameSite=Lax, Secure outside localhost. */
export const SESSION_COOKIE = 'op_console_session';
/** A password: 12 to 200 characters (NIST SP 800-63B: length, no composition rules). */
export const PASSWORD_MIN_LENGTH = 12;

/** How long a setup link (the first owner's, or an invitation's) works, once. */
export const SETUP_LINK_TTL_HOURS = 24;

export const ConsoleRoleSchema = z.enum(['owner', 'admin', 'viewer']);

export const ConsoleSession = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: ConsoleRoleSchema }),
  store: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  csrf_token: z.string().describe(`Send it as ${CSRF_HEADER} with every change.`),
  expires_at: DateTime,
});

export const LoginRequest = z.object({
  email: text(254, 'The email the user was created with.'),
  password: string(200, z.string().min(1, 'must not be empty')),
});

export const SetupRequest = z.object({
  token: text(200, 'The token of the setup link.'),
  password: string(200, z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)),
});

/** A setup link's token, to ask whether the link still works before offering the password form. */
export const SetupCheckRequest = z.object({
  token: SetupRequest.shape.token,
});

export const PasswordChangeRequest = z.object({
  current_password: string(200, z.string().min(1, 'must not be empty')),
  new_password: SetupRequest.shape.password,
});

export const consoleSessionContract = c.router({
  current: {
    method: 'GET',
    path: '/console/api/session',
    responses: { 200: ConsoleSession, ...pickErrors(401, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'Who is logged in, and the CSRF token',
  },
  login: {
    method: 'POST',
    path: '/console/api/session',
    body: LoginRequest,
    responses: { 200: ConsoleSession, ...pickErrors(400, 401, 403, 429, 500) },
    metadata: sessionRoute('none'),
    summary: 'Log in (a new session; any old one of this browser ends)',
  },
  logout: {
    method: 'DELETE',
    path: '/console/api/session',
    body: c.noBody(),
    responses: { 200: z.object({ logged_out: z.literal(true) }), ...pickErrors(401, 403, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'Log out: the session is destroyed',
  },
  changePassword: {
    method: 'POST',
    path: '/console/api/password',
    body: PasswordChangeRequest,
    responses: { 200: ConsoleSession, ...pickErrors(400, 401, 403, 429, 500) },
    metadata: sessionRoute('viewer'),
    summary: "Change one's password: every session of the user ends, and a new one opens here",
  },
  checkSetup: {
    method: 'POST',
    path: '/console/api/setup/check',
    // POST, so the token stays out of addresses and access logs.
    body: SetupCheckRequest,
    responses: { 200: z.object({ valid: z.literal(true) }), ...pickErrors(400, 404, 429, 500) },
    metadata: sessionRoute('none'),
    summary: 'Whether a setup link still works (unused and unexpired): 200, or 404 as the setup answers; it spends nothing and names no one',
  },
  setup: {
    method: 'POST',
    path: '/console/api/setup',
    body: SetupRequest,
    responses: { 200: ConsoleSession, ...pickErrors(400, 403, 404, 429, 500) },
    metadata: sessionRoute('none'),
    summary: "Choose a password with a setup link's token, and log in",
  },
});
