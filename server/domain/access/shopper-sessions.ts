// A shopper's session (docs/shopper-claims.md): opened by finding an order with its number and
// email, good for SHOPPER_SESSION_MINUTES, for that one order of that one store. No account and no
// row: the cookie carries the store, the order and the expiry, signed (HMAC-SHA256, checked in
// constant time by cookie-signature) with a key every instance shares (server_secrets). A change
// also carries a CSRF token derived from the cookie with the same key.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sign, unsign } from 'cookie-signature';
import { z } from 'zod';
import { SHOPPER_SESSION_MINUTES } from '../../../contract/shopper/index.js';
import type { Database } from '../../db/client.js';

export interface ShopperSession {
  storeId: string;
  orderId: string;
  expiresAt: Date;
}

export interface IssuedShopperSession extends ShopperSession {
  /** The cookie's value. */
  token: string;
  csrfToken: string;
}

export type SessionCheck = { status: 'valid'; session: ShopperSession } | { status: 'expired' | 'invalid' };

const Payload = z.object({ s: z.string().uuid(), o: z.string().uuid(), e: z.number().int() });

export interface ShopperSessions {
  issue(target: { storeId: string; orderId: string }, now: Date): Promise<IssuedShopperSession>;
  check(token: string, now: Date): Promise<SessionCheck>;
  csrfMatches(token: string, presented: string | undefined): Promise<boolean>;
  csrfTokenOf(token: string): Promise<string>;
}

/** Sessions signed with the shared key, read once from the database and kept by this service. */
export function shopperSessions(db: Database): ShopperSessions {
  let key: Promise<Buffer> | undefined;
  const secret = (): Promise<Buffer> => {
    key ??= db.serverSecret.findUniqueOrThrow({ where: { name: 'shopper_session' }, select: { secret: true } }).then((row) => Buffer.from(row.secret));
    // A failed read (the database away) is not kept: the next request reads again.
    key.catch(() => {
      key = undefined;
    });
    return key;
  };
  const csrfOf = async (token: string) => createHmac('sha256', await secret()).update(`csrf.${token}`).digest('base64url');

  return {
    async issue(target, now) {
      const expiresAt = new Date(now.getTime() + SHOPPER_SESSION_MINUTES * 60_000);
      const payload = Buffer.from(JSON.stringify({ s: target.storeId, o: target.orderId, e: expiresAt.getTime() })).toString('base64url');
      const token = sign(payload, await secret());
      return { ...target, expiresAt, token, csrfToken: await csrfOf(token) };
    },
    async check(token, now) {
      const payload = unsign(token, await secret());
      if (payload === false) return { status: 'invalid' };
      let parsed: z.infer<typeof Payload>;
      try {
        parsed = Payload.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
      } catch {
        return { status: 'invalid' };
      }
      if (parsed.e <= now.getTime()) return { status: 'expired' };
      return { status: 'valid', session: { storeId: parsed.s, orderId: parsed.o, expiresAt: new Date(parsed.e) } };
    },
    async csrfMatches(token, presented) {
      if (presented === undefined) return false;
      const expected = Buffer.from(await csrfOf(token));
      const given = Buffer.from(presented);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    csrfTokenOf: csrfOf,
  };
}
