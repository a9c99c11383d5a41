// Who does something, and for which store in which mode. Every domain operation on a store's data
// takes a Scope as its argument after the database handle, built once at the front door: an API
// key, a platform's signed message, a console session, a shopper's claim-page session, the
// operator's CLI (after it found the store) or a job working for one store. Work across stores (the
// CLI's operator commands on the service itself, the retention sweeps) takes a ServiceScope, which
// names the operator or job and no store. The audit log records the actor in the transaction of the
// change.
import type { StoreContext } from '../stores/index.js';

export type Mode = 'live' | 'test';

export type Actor =
  | { kind: 'api_key'; keyId: string }
  | { kind: 'platform'; platform: string }
  | { kind: 'console_user'; userId: string }
  | { kind: 'operator'; name: string }
  | { kind: 'system'; job: string }
  /** A shopper who found their order by its number and email: no account, so the order names them. */
  | { kind: 'shopper'; orderId: string };

export type PlatformActor = Extract<Actor, { kind: 'platform' }>;
export type ShopperActor = Extract<Actor, { kind: 'shopper' }>;
export type ConsoleUserActor = Extract<Actor, { kind: 'console_user' }>;

/** A command on one store's data: the store, who acts, and whether live data is at stake. */
export interface Scope<A extends Actor = Actor> {
  store: StoreContext;
  actor: A;
  /**
   * Decided once, at the edge: the key's prefix, a platform message's declaration or the order it
   * names (domain/sandbox/sandbox.ts), and live for the console, the shopper and the operator.
   */
  mode: Mode;
}

/** Work that spans stores: the operator's commands on the service itself, and the service's sweeps. */
export interface ServiceScope {
  actor: Extract<Actor, { kind: 'operator' } | { kind: 'system' }>;
}

/** The operator or a job at work on one store's data: always live data (test orders are never stored). */
export function actingFor(service: ServiceScope, store: StoreContext): Scope {
  return { store, actor: service.actor, mode: 'live' };
}

/** The service's own job, as the actor of the work it does across stores. */
export function systemScope(job: string): ServiceScope {
  return { actor: { kind: 'system', job } };
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
