// The flags every session cookie of the service carries, for the console's and the claim page's
// alike: HttpOnly, Secure unless served on localhost, scoped to the path that reads it, and either
// expiring with its session or cleared (null).
import { stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';

export const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export interface SessionCookie {
  name: string;
  path: string;
  sameSite: 'lax' | 'strict';
}

export function setSessionCookieOf(req: Request, res: Response, cookie: SessionCookie, session: { token: string; expiresAt: Date } | null): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie({
      name: cookie.name,
      value: session?.token ?? '',
      httpOnly: true,
      sameSite: cookie.sameSite,
      secure: !LOCAL_HOSTS.has(req.hostname),
      path: cookie.path,
      ...(session === null ? { maxAge: 0 } : { expires: session.expiresAt }),
    }),
  );
}
