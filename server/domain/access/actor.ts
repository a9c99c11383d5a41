// Who does something, and for which store in which mode. Every domain command receives one: the
// front doors (an API key, a platform's signed message, a console user, the operator's CLI, a
// shopper on the claim page) and the service's own jobs each become an Actor at the edge, and the
// audit log records it.
import type { StoreContext } from '../stores/stores.js';

export type Mode = 'live' | 'test';

export type Actor =
  | { kind: 'api_key'; keyId: string }
  | { kind: 'platform'; platform: string }
  | { kind: 'console_user'; userId: string }
  | { kind: 'operator'; name: string }
  | { kind: 'system'; job: string }
  /** A shopper who found their order by its number and email: no account, so the order names them. */
  | { kind: 'shopper'; orderId: string };

/** A command on one store's data: the store, who acts, and whether live data is at stake. */
export interface StoreScope {
  store: StoreContext;
  actor: Actor;
  /** Decided once, at the edge (the key's prefix, or the message's declared mode). */
  mode: Mode;
}

/**
 * A platform's message for one of its connected stores. Its mode is the message's own declaration
 * (each message decides it), so the scope carries the store and the sending platform only.
 */
export interface PlatformScope {
  store: StoreContext;
  actor: Extract<Actor, { kind: 'platform' }>;
}

/** The actor as the audit log stores it: a kind and an id (never a secret or personal data). */
export function actorColumns(actor: Actor): { actorKind: Actor['kind']; actorId: string } {
  switch (actor.kind) {
    case 'api_key':
      return { actorKind: actor.kind, actorId: actor.keyId };
    case 'platform':
      return { actorKind: actor.kind, actorId: actor.platform };
    case 'console_user':
      return { actorKind: actor.kind, actorId: actor.userId };
    case 'operator':
      return { actorKind: actor.kind, actorId: actor.name };
    case 'system':
      return { actorKind: actor.kind, actorId: actor.job };
    case 'shopper':
      return { actorKind: actor.kind, actorId: actor.orderId };
  }
}
