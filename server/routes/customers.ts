import { initServer } from '@ts-rest/express';
import { customersContract } from '../../contract/index.js';
import { exportCustomerData, redactCustomer } from '../domain/privacy/index.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { toCustomerDataExport, toCustomerRedaction } from '../wire/customers.js';

const s = initServer();

export const customersRouter = ({ db, clock, metrics }: AppDeps) =>
  s.router(customersContract, {
    redact: async ({ body, req }) => {
      const scope = scopeOf(req);
      const result = await redactCustomer(db, scope, { email: body.email }, clock.now());
      metrics.privacyRequestReceived('customer_redact');
      metrics.personalDataErased('request', result.redacted.length);
      return { status: 200, body: toCustomerRedaction(result) };
    },
    dataRequest: async ({ body, req }) => {
      const scope = scopeOf(req);
      const now = clock.now();
      const result = await exportCustomerData(db, scope, { email: body.email }, now);
      metrics.privacyRequestReceived('customer_data_request');
      return { status: 200, body: toCustomerDataExport(result, now) };
    },
  });
