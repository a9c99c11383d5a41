// The benchmark's databases and the data its scenarios start from (bench/run.ts): a migrated
// database per run, a store with a live key and a quote, the platform the webhook scenario posts
// as, and the table the insert baseline writes to (bench/target.ts).
import type { Database } from '../server/db/client.js';
import { ensureDatabase, type EmbeddedCluster } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import type { Scope } from '../server/domain/access/index.js';
import { actingFor, authenticateApiKey, type Caller, createMerchantUser, issueApiKey, openSession, type ServiceScope } from '../server/domain/access/index.js';
import { createQuote } from '../server/domain/quotes/index.js';
import { createStore, type StoreContext } from '../server/domain/stores/index.js';


import { SESSION_COOKIE } from '../contract/console/index.js';


/** The operator the bench acts as, in the audit log. */
export const BENCH_OPERATOR: ServiceScope = { actor: { kind: 'operator', name: 'bench' } };

/** The platform whose signed order.placed messages the webhook scenario sends. */
export const PLATFORM_SLUG = 'benchplatform';
export const PLATFORM_SECRET = 'bench-platform-shared-secret-0123456789';

export interface Seeded {
  store: StoreContext;
  liveKey: string;
  quoteId: string;
  /** The live key's store scope, as the key middleware would hand it to the domain. */
  scope: Scope;
  /** A Cookie header with an owner's console session, for the console's routes. */
  consoleCookie: string;
}

/** The store scope an authenticated store key gets (server/http/authenticate.ts). */
export function keyScope(caller: Caller): Scope {
  return { store: caller.store, mode: caller.mode, actor: { kind: 'api_key', keyId: caller.keyId } };
}

export async function seed(db: Database, slug: string): Promise<Seeded> {
  const store = await createStore(db, BENCH_OPERATOR, {
    slug,
    name: `Bench ${slug}`,
    pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null },
    protectionSkus: [],
    quoteOrigin: 'backend',
    clientProfile: 'standard',
  });
  const live = await issueApiKey(db, actingFor(BENCH_OPERATOR, store), { mode: 'live', scope: 'store' });
  const scope = keyScope(await authenticateApiKey(db, live.key));
  // The quote every benchmarked order names: a year's lifetime is not possible, so quotes are
  // re-issued per run (24 h is plenty for one run).
  const quote = await createQuote(db, scope, { cart: { covered: { amount: 12500, currency: 'USD' }, cart_ref: 'bench' } }, new Date());
  // The console's owner: a session opened as a login would (the password itself is not measured).
  const owner = await createMerchantUser(db, actingFor(BENCH_OPERATOR, store), { email: `owner@${slug}.example`, role: 'owner' }, new Date());
  const session = await openSession(db, owner.user, new Date());
  return { store, liveKey: live.key, quoteId: quote.id, scope, consoleCookie: `${SESSION_COOKIE}=${session.token}` };
}

export async function createDatabaseIn(cluster: EmbeddedCluster, name: string): Promise<string> {
  await ensureDatabase(cluster.urlFor('postgres'), name);
  const url = cluster.urlFor(name);
  await migrate(url);
  return url;
}

export const BENCH_INSERTS_DDL = `
  CREATE TABLE IF NOT EXISTS bench_inserts (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id             uuid NOT NULL,
    order_number         text NOT NULL DEFAULT ('B-' || nextval('order_number_seq')),
    source_order_id      text NOT NULL,
    source_order_number  text NOT NULL,
    status               text NOT NULL DEFAULT 'created',
    insurance_selected   boolean NOT NULL,
    subtotal_cents       bigint NOT NULL,
    order_total_cents    bigint,
    shipping_total_cents bigint,
    taxes_cents          bigint,
    customer_first_name  text,
    customer_last_name   text,
    customer_email       text,
    shipping_address     jsonb,
    line_items           jsonb NOT NULL,
    source_created_on    timestamptz(3) NOT NULL,
    created_on           timestamptz(3) NOT NULL DEFAULT now(),
    UNIQUE (store_id, source_order_id)
  )`;
