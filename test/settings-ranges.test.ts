// The ranges of a store's settings are the domain's rules, whatever the door: the claim windows (1 to
// 365 days) and the personal-data retention (1 to 36,500 days) are refused out of range by the
// domain operations themselves, not only by the console's contract and the CLI's options.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateClaimPage } from '../server/domain/claims/index.js';
import { MAX_RETENTION_DAYS, updateStoreDeclarations } from '../server/domain/stores/index.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

let service: TestService;
let shop: SeededStore;
beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
});
afterAll(async () => service?.close());

const windowsOf = async () =>
  service.db.store.findUniqueOrThrow({ where: { id: shop.store.id }, select: { claimLostAfterDays: true, claimAfterDeliveryDays: true, personalDataRetentionDays: true } });

describe('claim windows', () => {
  it('are refused out of 1 to 365 days, naming each bad field, and nothing changes', async () => {
    const before = await windowsOf();
    for (const bad of [0, 366, 1.5, -1]) {
      await expect(updateClaimPage(service.db, actingFor(TEST_OPERATOR, shop.store), { lost_after_days: bad, after_delivery_days: bad }, new Date())).rejects.toMatchObject({
        code: 'invalid_request',
        fieldErrors: [
          { field: 'lost_after_days', message: 'must be a whole number of days from 1 to 365' },
          { field: 'after_delivery_days', message: 'must be a whole number of days from 1 to 365' },
        ],
      });
    }
    expect(await windowsOf()).toEqual(before);
  });

  it('are taken at the ends of the range', async () => {
    await updateClaimPage(service.db, actingFor(TEST_OPERATOR, shop.store), { lost_after_days: 1, after_delivery_days: 365 }, new Date());
    expect(await windowsOf()).toMatchObject({ claimLostAfterDays: 1, claimAfterDeliveryDays: 365 });
  });
});

describe('the personal-data retention', () => {
  it('is refused out of 1 to 36,500 days, and taken at its ends', async () => {
    for (const bad of [0, MAX_RETENTION_DAYS + 1, 2.5]) {
      await expect(updateStoreDeclarations(service.db, actingFor(TEST_OPERATOR, shop.store), { personalDataRetentionDays: bad })).rejects.toMatchObject({
        code: 'invalid_request',
        fieldErrors: [{ field: 'personal_data_retention_days', message: 'must be a whole number of days from 1 to 36500' }],
      });
    }
    for (const good of [1, MAX_RETENTION_DAYS]) {
      await updateStoreDeclarations(service.db, actingFor(TEST_OPERATOR, shop.store), { personalDataRetentionDays: good });
      expect((await windowsOf()).personalDataRetentionDays).toBe(good);
    }
  });
});
