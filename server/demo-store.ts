// On a fresh embedded database, `npm start` creates a demo store and prints its keys once (the
// plaintext is never stored, so it cannot be shown again). Never done against DATABASE_URL.
import type { Database } from './db/client.js';
import { issueApiKey, type IssuedKey } from './domain/api-keys.js';
import { createStore, type StoreContext } from './domain/stores.js';
import type { Actor } from './domain/actor.js';

/** The demo store is set up by the service itself, at first start on the embedded database. */
const DEMO_SETUP: Actor = { kind: 'system', job: 'demo-store' };

export const DEMO_STORE_SLUG = 'demo-store';

export interface DemoStore {
  store: StoreContext;
  liveKey: IssuedKey;
  testKey: IssuedKey;
}

/** Creates the demo store when the database has no store at all; returns null otherwise. */
export async function createDemoStoreIfEmpty(db: Database): Promise<DemoStore | null> {
  if ((await db.store.count()) > 0) return null;
  const store = await createStore(db, DEMO_SETUP, {
    slug: DEMO_STORE_SLUG,
    name: 'Demo Store',
    pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: 500_000 },
    protectionSkus: [],
    quoteOrigin: 'backend',
    clientProfile: 'standard',
  });
  const liveKey = await issueApiKey(db, DEMO_SETUP, { storeSlug: store.slug, mode: 'live', scope: 'store' });
  const testKey = await issueApiKey(db, DEMO_SETUP, { storeSlug: store.slug, mode: 'test', scope: 'store' });
  return { store, liveKey, testKey };
}

export function describeDemoStore(demo: DemoStore): string {
  return [
    '',
    `Created the demo store "${demo.store.slug}" (rate 1.5 %, minimum premium 0.98 USD, covered up to 5000.00 USD).`,
    'Its API keys are shown this once; only their hashes are stored:',
    `  live key: ${demo.liveKey.key}`,
    `  test key: ${demo.testKey.key}`,
    'Next: export API_KEY=<live key above>, then follow the README quickstart.',
    '',
  ].join('\n');
}
