// The merchant console's own contract: served under /console/api/, authenticated by a session
// cookie (never an API key), and not part of the merchant openapi.json. The console's web app
// (web/console) and the server's console routes both derive from it.
import { initContract } from '@ts-rest/core';
import { consoleApiKeysContract } from './api-keys.js';
import { consoleSessionContract } from './session.js';

const c = initContract();

export const consoleContract = c.router(
  {
    session: consoleSessionContract,
    keys: consoleApiKeysContract,
  },
  { strictStatusCodes: true },
);
export type ConsoleContract = typeof consoleContract;

export * from './api-keys.js';
export * from './session.js';
