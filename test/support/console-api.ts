// The ground the console's API tests share: the test file's own service with two stores (`shop`, and
// `rival`, whose users must see none of it), and requests made as the console's page makes them.
import { expect } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE } from '../../contract/console/index.js';
import { actingFor, createMerchantUser } from '../../server/domain/access/index.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type ServiceOptions, type TestService } from './service.js';


export let service: TestService;
export let shop: SeededStore;
export let rival: SeededStore;

export async function startConsoleApiService(options: ServiceOptions = {}): Promise<void> {
  service = await startService(options);
  shop = await seedStore(service.db);
  rival = await seedStore(service.db);
}

export const stopConsoleApiService = async (): Promise<void> => service?.close();

export interface Browser {
  cookie: string | undefined;
  csrf: string | undefined;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string[];
  headers: Headers;
}

/** A request as the console's page makes it: same origin, the session cookie, the CSRF token on changes. */
export async function consoleCall(browser: Browser, method: string, path: string, body?: unknown, options: { csrf?: string | null; origin?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { origin: options.origin ?? service.baseUrl };
  if (browser.cookie !== undefined) headers.cookie = `${SESSION_COOKIE}=${browser.cookie}`;
  const csrf = options.csrf === undefined ? browser.csrf : options.csrf;
  if (csrf !== null && csrf !== undefined && method !== 'GET') headers[CSRF_HEADER] = csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${service.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  const setCookie = response.headers.getSetCookie();
  for (const line of setCookie) {
    const match = new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(line);
    if (match) browser.cookie = match[1] === '' ? undefined : match[1];
  }
  const parsed = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  if (typeof parsed.csrf_token === 'string') browser.csrf = parsed.csrf_token;
  return { status: response.status, body: parsed, setCookie, headers: response.headers };
}

export const newBrowser = (): Browser => ({ cookie: undefined, csrf: undefined });

/** A user of the store with a chosen password, logged in. */
export async function loggedIn(store: SeededStore, role: 'owner' | 'admin' | 'viewer'): Promise<{ browser: Browser; email: string }> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@${store.store.slug}.example`;
  const { setupPath } = await createMerchantUser(service.db, actingFor(TEST_OPERATOR, store.store), { email, role }, new Date());
  const browser = newBrowser();
  const token = new URL(setupPath, 'http://x').searchParams.get('token');
  expect((await consoleCall(browser, 'POST', '/console/api/setup', { token, password: 'correct horse battery' })).status).toBe(200);
  return { browser, email };
}
