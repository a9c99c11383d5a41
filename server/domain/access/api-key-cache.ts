// The callers of recently used API keys, in memory: a key-authenticated request then asks the
// database nothing to know who calls (docs/performance.md: that round trip was most of the cost
// of the lightest endpoints). Likewise the platforms that sign messages and the stores connected to
// them, for platform webhooks. Safe across instances because every change to a key, a store, a
// platform or a connection notifies all of them (migrations api_key_change_notifications and
// platform_change_notifications), and each empties its caches on it; while that notification
// channel is down nothing is served from here.
import { LRUCache } from 'lru-cache';
import { startChangeListener, type ChangeListener } from '../../db/change-listener.js';
import type { Caller } from './api-keys.js';
import type { PlatformRecord } from '../platforms/index.js';
import type { StoreContext } from '../stores/index.js';

/** What was read of the database, kept until the next key, store or platform change is heard. */
export interface ChangeCache<Value> {
  /** The value, by its key; undefined when it must be read afresh. */
  get(key: string): Value | undefined;
  /** The generation to hand back to set(): a set begun before a change must not outlive it. */
  generation(): number;
  set(key: string, value: Value, generation: number): void;
  clear(): void;
}

/** The caller of a valid key, by the key's SHA-256. */
export type CallerCache = ChangeCache<Caller>;

export interface CallerCacheOptions {
  /** Whether changes are certain to be heard now (the listener is connected). */
  trustworthy: () => boolean;
  maxEntries?: number;
  /** A bound on staleness should a notification ever go astray. */
  ttlMs?: number;
}

export function createChangeCache<Value extends object>(options: CallerCacheOptions & { freeze: (value: Value) => Value }): ChangeCache<Value> {
  const entries = new LRUCache<string, Value>({ max: options.maxEntries ?? 10_000, ttl: options.ttlMs ?? 60_000 });
  let generation = 0;
  return {
    get: (key) => (options.trustworthy() ? entries.get(key) : undefined),
    generation: () => generation,
    set: (key, value, readAt) => {
      // A change heard since the database was read may be the one that invalidates this value.
      if (readAt !== generation || !options.trustworthy()) return;
      entries.set(key, options.freeze(value));
    },
    clear: () => {
      generation += 1;
      entries.clear();
    },
  };
}

export const createCallerCache = (options: CallerCacheOptions): CallerCache =>
  createChangeCache<Caller>({ ...options, freeze: (caller) => Object.freeze({ ...caller, store: Object.freeze({ ...caller.store }) }) });

/** A platform's signing secret by its slug, and a connected store by platform id and store slug. */
export interface PlatformCaches {
  platforms: ChangeCache<PlatformRecord>;
  connectedStores: ChangeCache<StoreContext>;
}

export interface ApiKeyCache extends PlatformCaches {
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
  const trustworthy = () => listener?.listening === true;
  const callers = createCallerCache({ trustworthy });
  const platforms = createChangeCache<PlatformRecord>({ trustworthy, freeze: (platform) => Object.freeze({ ...platform }) });
  const connectedStores = createChangeCache<StoreContext>({ trustworthy, freeze: (store) => Object.freeze({ ...store }) });
  listener = await startChangeListener({
    databaseUrl,
    channel: API_KEY_CHANGES_CHANNEL,
    onChange: () => {
      callers.clear();
      platforms.clear();
      connectedStores.clear();
    },
    onDisconnect: options.onDisconnect,
  });
  const started = listener;
  return {
    callers,
    platforms,
    connectedStores,
    get listening() {
      return started.listening;
    },
    sync: () => started.sync(),
    stop: () => started.stop(),
  };
}
