// What the HTTP layer attaches to a request as it passes through the middleware.
import type { AppRoute } from '@ts-rest/core';
import type { ConsoleSessionRecord, ConsoleUserActor, Scope, ShopperActor, ShopperSession } from '../domain/access/index.js';



declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      /** Set by authenticateKey on key-authenticated routes: the key's store, mode and actor. */
      scope?: Scope;
      /** The exact bytes of a JSON body, for signature checks and raw-text money checks. */
      rawBody?: Buffer;
      /** The platform a signed webhook came from, set once its signature checks out. */
      platform?: { id: string; slug: string };
      /** Set by consoleSession on console routes: the session, and the scope its user acts in. */
      console?: { session: ConsoleSessionRecord; scope: Scope<ConsoleUserActor> };
      /** Set by shopperSession on the claim page's session routes: the signed session and its cookie. */
      shopper?: { session: ShopperSession; token: string; scope: Scope<ShopperActor> };
      /** Set by ts-rest on matched routes. */
      tsRestRoute?: AppRoute;
    }
  }
}

export {};
