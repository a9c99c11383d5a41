// The merchant console's own contract: served under /console/api/, authenticated by a session
// cookie (never an API key), and not part of the merchant openapi.json. The console's web app
// (web/console) and the server's console routes both derive from it.
import { initContract } from '@ts-rest/core';
import { consoleApiKeysContract } from './api-keys.js';
import { consoleBillingContract } from './billing.js';
import { consoleClaimRulesContract, consoleClaimsContract } from './claims.js';
import { consoleDevelopersContract } from './developers.js';
import { consoleOrdersContract } from './orders.js';
import { consoleOverviewContract } from './overview.js';
import { consoleSessionContract } from './session.js';
import { consoleSettingsContract } from './settings.js';
import { consoleShipmentsContract } from './shipments.js';

const c = initContract();

export const consoleContract = c.router(
  {
    session: consoleSessionContract,
    keys: consoleApiKeysContract,
    overview: consoleOverviewContract,
    orders: consoleOrdersContract,
    claims: consoleClaimsContract,
    claimRules: consoleClaimRulesContract,
    billing: consoleBillingContract,
    shipments: consoleShipmentsContract,
    settings: consoleSettingsContract,
    developers: consoleDevelopersContract,
  },
  { strictStatusCodes: true },
);
export type ConsoleContract = typeof consoleContract;

export * from './api-keys.js';
export * from './billing.js';
export * from './claims.js';
export * from './developers.js';
export * from './orders.js';
export * from './overview.js';
export * from './session.js';
export * from './settings.js';
export * from './shipments.js';
