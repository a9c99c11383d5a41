// When each API key was last used, to the minute, for the console's key list. At most one write
// per key per minute per instance, after the request is answered, and never part of it: a failed
// write loses a "last used" time, not a request. The write does not touch the key cache's
// notification (the api_keys trigger ignores last_used_at).
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.js';

const MINUTE_MS = 60_000;

export interface KeyUseRecorder {
  used(keyId: string, now: Date): void;
}

export function createKeyUseRecorder(db: Database): KeyUseRecorder {
  const written = new LRUCache<string, number>({ max: 50_000 });
  return {
    used(keyId, now) {
      const minute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
      if (written.get(keyId) === minute) return;
      written.set(keyId, minute);
      const at = new Date(minute);
      db.apiKey
        .updateMany({ where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: at } }] }, data: { lastUsedAt: at } })
        .catch(() => written.delete(keyId));
    },
  };
}
