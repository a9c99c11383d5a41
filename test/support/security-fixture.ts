// The ground the security tests share: one service whose logs are captured, two stores each
// connected to its own platform, and every key issued, for the scans of logs and tables.
import { Writable } from 'node:stream';
import { signWebhook } from '../../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../../server/domain/platforms/index.js';
import { createLogger } from '../../server/logger.js';
import { call, type ApiResponse } from './http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './service.js';
import { actingFor } from '../../server/domain/access/index.js';

// Every log line of every app of the test file, for the scans of the log output.
export const logLines: string[] = [];
export const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

export const PLATFORM_A = 'secplat-a';
export const SECRET_A = 'security-platform-a-secret-0123456789';
export const PLATFORM_B = 'secplat-b';
export const SECRET_B = 'security-platform-b-secret-9876543210';
export const EASYPOST_SECRET = 'whsec_security_easypost_secret_42';

export let service: TestService;
export let storeA: SeededStore;
export let storeB: SeededStore;
/** Every key issued by the test file, whatever its mode, scope or state. */
export const issuedKeys: string[] = [];

export async function startSecurityService(): Promise<void> {
  service = await startService({ logger: createLogger('debug', capture), easyPostWebhookSecret: EASYPOST_SECRET });
  storeA = await seedStore(service.db);
  storeB = await seedStore(service.db);
  issuedKeys.push(storeA.liveKey, storeA.testKey, storeB.liveKey, storeB.testKey);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM_A, SECRET_A);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM_B, SECRET_B);
  await connectStore(service.db, actingFor(TEST_OPERATOR, storeA.store), PLATFORM_A);
  await connectStore(service.db, actingFor(TEST_OPERATOR, storeB.store), PLATFORM_B);
}

export const stopSecurityService = async (): Promise<void> => service.close();

export let sequence = 0;
export const unique = (prefix: string) => `${prefix}${Date.now()}${(sequence += 1)}`;

export function pushSigned(platform: string, secret: string, message: unknown, timestamp?: number): Promise<ApiResponse> {
  const raw = JSON.stringify(message);
  return call(service.baseUrl, 'POST', `/api/webhooks/${platform}`, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(secret, raw, timestamp) },
  });
}
