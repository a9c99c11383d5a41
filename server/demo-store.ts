// On a fresh embedded database, `npm start` creates a demo store and prints its keys once (the
// plaintext is never stored, so it cannot be shown again). Never done against DATABASE_URL.
import type { Database } from './db/client.js';
import { actingFor, createMerchantUser, issueApiKey, type IssuedKey, setPasswordWithToken, systemScope } from './domain/access/index.js';
import { randomBytes } from 'node:crypto';
import { createStore, type StoreContext } from './domain/stores/index.js';



/** The demo store is set up by the service itself, at first start on the embedded database. */
const DEMO_SETUP = systemScope('demo-store');

export const DEMO_STORE_SLUG = 'demo-store';
export const DEMO_OWNER_EMAIL = 'owner@demo-store.example';

export interface DemoStore {
  store: StoreContext;
  liveKey: IssuedKey;
  testKey: IssuedKey;
  /** The console's demo owner: its password is shown once, like the keys. */
  owner: { email: string; password: string };
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
  const scope = actingFor(DEMO_SETUP, store);
  const liveKey = await issueApiKey(db, scope, { mode: 'live', scope: 'store' });
  const testKey = await issueApiKey(db, scope, { mode: 'test', scope: 'store' });
  // The owner's password is chosen through the same one-time setup a real owner uses.
  const password = randomBytes(12).toString('base64url');
  const { setupToken } = await createMerchantUser(db, scope, { email: DEMO_OWNER_EMAIL, role: 'owner' }, new Date());
  await setPasswordWithToken(db, setupToken, password, new Date());
  return { store, liveKey, testKey, owner: { email: DEMO_OWNER_EMAIL, password } };
}

export function describeDemoStore(demo: DemoStore, publicUrl: string): string {
  return [
    '',
    `Created the demo store "${demo.store.slug}" (rate 1.5 %, minimum premium 0.98 USD, covered up to 5000.00 USD).`,
    'Its API keys are shown this once; only their hashes are stored:',
    `  live key: ${demo.liveKey.key}`,
    `  test key: ${demo.testKey.key}`,
    `The merchant console: ${publicUrl}/console (email ${demo.owner.email}, password ${demo.owner.password}, shown this once).`,
    `The shoppers' claim page: ${publicUrl}/claims/${demo.store.slug} (a shopper finds an order there by its number and email).`,
    'Next: export API_KEY=<live key above>, then follow the README quickstart.',
    '',
  ].join('\n');
}
