// The callers of recently used API keys, in memory: a key-authenticated request then asks the
// database nothing to know who calls (docs/performance.md: that round trip was most of the cost
// of the lightest endpoints). Safe across instances because every change to a key or a store
// (revocation, new terms) notifies all of them (migration api_key_change_notifications), and each
// empties its cache on it; while that notification channel is down nothing is served from here.
import { LRUCache } from 'lru-cache';
import { startChangeListener, type ChangeListener } from '../db/change-listener.js';
import type { Caller } from './api-keys.js';

export interface CallerCache {
  /** The caller of a valid key, by the key's SHA-256; undefined when it must be read afresh. */
  get(keyHash: string): Caller | undefined;
  /** The generation to hand back to set(): a set begun before a change must not outlive it. */
  generation(): number;
  set(keyHash: string, caller: Caller, generation: number): void;
  clear(): void;
}

export interface CallerCacheOptions {
  /** Whether changes are certain to be heard now (the listener is connected). */
  trustworthy: () => boolean;
  maxEntries?: number;
  /** A bound on staleness should a notification ever go astray. */
  ttlMs?: number;
}

export function createCallerCache(options: CallerCacheOptions): CallerCache {
  const entries = new LRUCache<string, Caller>({ max: options.maxEntries ?? 10_000, ttl: options.ttlMs ?? 60_000 });
  let generation = 0;
  return {
    get: (keyHash) => (options.trustworthy() ? entries.get(keyHash) : undefined),
    generation: () => generation,
    set: (keyHash, caller, readAt) => {
      // A change heard since the database was read may be the one that invalidates this caller.
      if (readAt !== generation || !options.trustworthy()) return;
      entries.set(keyHash, Object.freeze({ ...caller, store: Object.freeze({ ...caller.store }) }));
    },
    clear: () => {
      generation += 1;
      entries.clear();
    },
  };
}

export interface ApiKeyCache {
  callers: CallerCache;
  /** Whether key and store changes are being heard (otherwise every key is read afresh). */
  readonly listening: boolean;
  /** Resolves once every key or store change committed before the call has emptied the cache. */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

export const API_KEY_CHANGES_CHANNEL = 'api_key_changes';

export async function startApiKeyCache(
  databaseUrl: string,
  options: { onDisconnect?: (reconnectInMs: number) => void } = {},
): Promise<ApiKeyCache> {
  let listener: ChangeListener | undefined;
  const callers = createCallerCache({ trustworthy: () => listener?.listening === true });
  listener = await startChangeListener({
    databaseUrl,
    channel: API_KEY_CHANGES_CHANNEL,
    onChange: () => callers.clear(),
    onDisconnect: options.onDisconnect,
  });
  const started = listener;
  return {
    callers,
    get listening() {
      return started.listening;
    },
    sync: () => started.sync(),
    stop: () => started.stop(),
  };
}
