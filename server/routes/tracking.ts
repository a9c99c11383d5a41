import { initServer } from '@ts-rest/express';
import { trackingContract } from '../../contract/index.js';
import { AppError } from '../domain/kernel/index.js';
import { applyProviderEvent } from '../domain/shipments/index.js';
import { claimRulesAfterTracking } from '../jobs/claim-rules.js';
import type { AppDeps } from '../deps.js';
import { parseEasyPostTrackerEvent } from '../tracking/easypost.js';

const s = initServer();

export const trackingRouter = ({ db, clock, logger }: AppDeps) => {
  const rerunRulesAfterTracking = claimRulesAfterTracking({ db, clock, logger });
  return s.router(trackingContract, {
    easyPostWebhook: async ({ body }) => {
      let event: ReturnType<typeof parseEasyPostTrackerEvent>;
      try {
        event = parseEasyPostTrackerEvent(body);
      } catch (error) {
        throw new AppError('invalid_request', `Malformed EasyPost event: ${(error as Error).message}`);
      }
      // Events other than tracker updates are acknowledged so EasyPost does not resend them.
      if (event === null) return { status: 200, body: { received: true, matched: false } };
      const shipment = await applyProviderEvent(db, event.providerRef, event.report, clock.now());
      if (shipment !== null) await rerunRulesAfterTracking({ shipmentId: shipment.id, storeId: shipment.storeId });
      return { status: 200, body: { received: true, matched: shipment !== null } };
    },
  });
};
