import { initServer } from '@ts-rest/express';
import { consoleSettingsContract } from '../../../contract/console/index.js';
import { createMerchantUser, disableMerchantUser, enableMerchantUser, listMerchantUsers, type MerchantUser } from '../../domain/access/index.js';
import { findStoreBySlug, updateStoreDeclarations, type StoreContext } from '../../domain/stores/index.js';
import type { AppDeps } from '../../deps.js';
import { consoleOf } from '../../http/console-session.js';
import { claimPageSettings, removeStoreLogo, setStoreLogo, toClaimPageResponse, updateClaimPage, type ClaimPageSettings } from '../../domain/claims/index.js';

const s = initServer();

const toSettings = (store: StoreContext, retentionDays: number, claimPage: ClaimPageSettings) => ({
  store: { id: store.id, slug: store.slug, name: store.name },
  pricing: { rate_bps: store.pricing.rateBps, min_premium_cents: store.pricing.minPremiumCents, max_covered_cents: store.pricing.maxCoveredCents },
  protection_skus: store.protectionSkus,
  quote_origin: store.quoteOrigin,
  client_profile: store.clientProfile,
  personal_data_retention_days: retentionDays,
  claim_page: toClaimPageResponse(claimPage),
});

const toConsoleUser = (user: MerchantUser) => ({
  id: user.id,
  email: user.email,
  role: user.role,
  password_set: user.passwordHash !== null,
  created_at: user.createdAt.toISOString(),
  disabled_at: user.disabledAt?.toISOString() ?? null,
});

export const consoleSettingsRouter = ({ db, clock }: AppDeps) => {
  // Read again after a change: the session's copy of the store is from before it.
  const settingsOf = async (slug: string) => {
    const store = await findStoreBySlug(db, slug);
    const { personalDataRetentionDays } = await db.store.findUniqueOrThrow({ where: { id: store.id }, select: { personalDataRetentionDays: true } });
    return toSettings(store, personalDataRetentionDays, await claimPageSettings(db, { id: store.id }));
  };
  return s.router(consoleSettingsContract, {
    get: async ({ req }) => ({ status: 200, body: await settingsOf(consoleOf(req).scope.store.slug) }),
    update: async ({ body, req }) => {
      const { scope } = consoleOf(req);
      await updateStoreDeclarations(db, scope, {
        ...(body.protection_skus === undefined ? {} : { protectionSkus: body.protection_skus }),
        ...(body.quote_origin === undefined ? {} : { quoteOrigin: body.quote_origin }),
        ...(body.client_profile === undefined ? {} : { clientProfile: body.client_profile }),
      });
      if (body.claim_page !== undefined) await updateClaimPage(db, scope, body.claim_page, clock.now());
      return { status: 200, body: await settingsOf(scope.store.slug) };
    },
    setLogo: async ({ req }) => {
      const { scope } = consoleOf(req);
      await setStoreLogo(db, scope, req.rawBody ?? Buffer.alloc(0), clock.now());
      return { status: 200, body: await settingsOf(scope.store.slug) };
    },
    removeLogo: async ({ req }) => {
      const { scope } = consoleOf(req);
      await removeStoreLogo(db, scope, clock.now());
      return { status: 200, body: await settingsOf(scope.store.slug) };
    },
    users: async ({ req }) => ({ status: 200, body: { data: (await listMerchantUsers(db, consoleOf(req).scope)).map(toConsoleUser) } }),
    invite: async ({ body, req }) => {
      const { scope } = consoleOf(req);
      const created = await createMerchantUser(db, scope, { email: body.email, role: body.role }, clock.now());
      // The link is on the host the owner reached the console by.
      return { status: 201, body: { user: toConsoleUser(created.user), setup_url: `${req.protocol}://${req.get('host') ?? 'localhost'}${created.setupPath}` } };
    },
    disable: async ({ params, req }) => {
      const { scope } = consoleOf(req);
      return { status: 200, body: toConsoleUser(await disableMerchantUser(db, scope, params.id, clock.now())) };
    },
    enable: async ({ params, req }) => {
      const { scope } = consoleOf(req);
      return { status: 200, body: toConsoleUser(await enableMerchantUser(db, scope, params.id, clock.now())) };
    },
  });
};
