// npm run admin -- merchant <create|update|claim-page|connect>: a merchant (store) made, its
// integration declarations and claim page changed, and a platform connected to it; printed as the
// API prints a store.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { centsToMajorString } from '../../../contract/money.js';
import { claimPageSettings, removeStoreLogo, setStoreLogo, toClaimPageResponse, updateClaimPage } from '../../domain/claims/index.js';
import { connectStore } from '../../domain/platforms/index.js';
import { createStore, updateStoreDeclarations, type StoreContext } from '../../domain/stores/index.js';
import { MerchantClaimPageOptions, MerchantConnectOptions, MerchantCreateOptions, MerchantUpdateOptions } from '../options.js';
import { action, collect, operator, operatorOn, parseOptions, UsageError, withDatabase, type Report } from '../shared.js';

async function merchantCreate(command: Command): Promise<Report> {
  const options = parseOptions(MerchantCreateOptions, command);
  const store = await withDatabase((db) =>
    createStore(db, operator(), {
      slug: options.slug,
      name: options.name,
      pricing: {
        rateBps: options.rateBps,
        minPremiumCents: options.minPremium,
        maxCoveredCents: options.maxCovered ?? null,
      },
      protectionSkus: options.protectionSku,
      quoteOrigin: options.quoteOrigin,
      clientProfile: options.clientProfile,
    }),
  );
  return { json: { store: storeJson(store) }, lines: describeStore(store) };
}

async function merchantUpdate(command: Command): Promise<Report> {
  const options = parseOptions(MerchantUpdateOptions, command);
  const protectionSkus = options.clearProtectionSkus ? [] : options.protectionSku;
  const store = await withDatabase(async (db) =>
    updateStoreDeclarations(db, await operatorOn(db, options.slug), {
      protectionSkus,
      quoteOrigin: options.quoteOrigin,
      clientProfile: options.clientProfile,
      woocommerceWebhookSecret: options.clearWoocommerceWebhookSecret ? null : options.woocommerceWebhookSecret,
      personalDataRetentionDays: options.personalDataRetentionDays,
    }),
  );
  return { json: { store: storeJson(store) }, lines: [`Updated merchant "${store.slug}".`, ...describeStore(store).slice(1, 3)] };
}

async function merchantClaimPage(command: Command): Promise<Report> {
  const options = parseOptions(MerchantClaimPageOptions, command);
  const patch = {
    ...(options.clearAccentColor ? { accent_color: null } : options.accentColor === undefined ? {} : { accent_color: options.accentColor }),
    ...(options.supportEmail === undefined ? {} : { support_email: options.supportEmail === '' ? null : options.supportEmail }),
    ...(options.supportUrl === undefined ? {} : { support_url: options.supportUrl === '' ? null : options.supportUrl }),
    ...(options.lostAfterDays === undefined ? {} : { lost_after_days: options.lostAfterDays }),
    ...(options.afterDeliveryDays === undefined ? {} : { after_delivery_days: options.afterDeliveryDays }),
  };
  const logo = options.logo === undefined ? undefined : await readFile(options.logo).catch(() => {
    throw new UsageError('invalid option: --logo must be a readable image file', 'invalid_request', [{ field: '--logo', message: 'must be a readable image file' }]);
  });
  const settings = await withDatabase(async (db) => {
    const scope = await operatorOn(db, options.slug);
    const now = new Date();
    await updateClaimPage(db, scope, patch, now);
    if (logo !== undefined) await setStoreLogo(db, scope, logo, now);
    if (options.removeLogo) await removeStoreLogo(db, scope, now);
    return claimPageSettings(db, { id: scope.store.id });
  });
  const json = toClaimPageResponse(settings);
  return {
    json: { claim_page: json },
    lines: [
      `Claim page of "${settings.slug}": ${json.url_path}`,
      `  accent colour: ${json.accent_color ?? 'default'}; logo: ${json.logo_url === null ? 'none' : 'set'}`,
      `  support: ${json.support_email ?? 'no email'}, ${json.support_url ?? 'no URL'}`,
      `  lost after ${json.lost_after_days} days without a scan; damage, missing items, theft up to ${json.after_delivery_days} days after delivery`,
    ],
  };
}

async function merchantConnect(command: Command): Promise<Report> {
  const options = parseOptions(MerchantConnectOptions, command);
  const link = await withDatabase(async (db) => connectStore(db, await operatorOn(db, options.merchant), options.platform));
  return {
    json: { connected: link },
    lines: [`Merchant "${link.store}" now takes messages from platform "${link.platform}" at POST /api/webhooks/${link.platform}.`],
  };
}

// Presentation: snake_case and major-unit strings, like the API.
function storeJson(store: StoreContext): Record<string, unknown> {
  return {
    id: store.id,
    slug: store.slug,
    name: store.name,
    rate_bps: store.pricing.rateBps,
    min_premium: centsToMajorString(store.pricing.minPremiumCents),
    max_covered: store.pricing.maxCoveredCents === null ? null : centsToMajorString(store.pricing.maxCoveredCents),
    protection_skus: store.protectionSkus,
    quote_origin: store.quoteOrigin,
    client_profile: store.clientProfile,
  };
}

function describeStore(store: StoreContext): string[] {
  const { rateBps, minPremiumCents, maxCoveredCents } = store.pricing;
  const cap = maxCoveredCents === null ? 'no cap on the covered amount' : `covered up to ${centsToMajorString(maxCoveredCents)} USD`;
  const skus = store.protectionSkus.length === 0 ? 'none' : store.protectionSkus.join(', ');
  return [
    `Created merchant "${store.slug}" (${store.name}), id ${store.id}.`,
    `  pricing: rate ${rateBps / 100} %, minimum premium ${centsToMajorString(minPremiumCents)} USD, ${cap}`,
    `  quotes from: ${store.quoteOrigin}; extra protection SKUs: ${skus}; client profile: ${store.clientProfile}`,
    `Next: npm run admin -- key create --merchant ${store.slug} --mode live`,
  ];
}

/** merchant create, update, claim-page and connect. */
export function registerMerchantCommands(program: Command): void {
  const merchant = program.command('merchant').description('manage merchants (stores)');
  merchant
    .command('create')
    .description('create a merchant')
    .option('--slug <slug>', 'identifier used in URLs and by the other commands (required)')
    .option('--name <name>', 'display name (required)')
    .option('--rate-bps <bps>', 'premium rate in basis points of the covered amount, 0 to 10000 (150 = 1.5 %)', '150')
    .option('--min-premium <amount>', 'minimum premium in USD, e.g. 0.98', '0.98')
    .option('--max-covered <amount>', 'cap on the covered amount in USD (default: no cap)')
    .option('--protection-sku <sku>', 'a SKU of the protection product itself; repeat for several', collect, [])
    .option('--quote-origin <origin>', 'where quotes are requested from: backend or browser', 'backend')
    .option('--client-profile <profile>', "standard, or route for a store running Route's own plugins", 'standard')
    .action(action(merchantCreate));

  merchant
    .command('update')
    .description('change the integration declarations of a merchant')
    .option('--slug <slug>', 'the merchant (required)')
    .option('--protection-sku <sku>', 'declare a protection SKU; repeat for several (replaces the declared list)', collect, undefined)
    .option('--clear-protection-skus', 'declare no protection SKUs (the built-in ones still count)')
    .option('--quote-origin <origin>', 'where quotes are requested from: backend or browser')
    .option('--client-profile <profile>', "standard, or route for a store running Route's own plugins")
    .option('--woocommerce-webhook-secret <secret>', "the secret of Route's WooCommerce webhooks, when kept from before the switch")
    .option('--clear-woocommerce-webhook-secret', 'forget a declared WooCommerce webhook secret')
    .option('--personal-data-retention-days <days>', "days an order's personal data is kept after its last activity (default 730)")
    .action(action(merchantUpdate));
  merchant
    .command('claim-page')
    .description("set the store's claim page (/claims/<slug>): branding, contact and claim windows")
    .option('--slug <slug>', 'the merchant (required)')
    .option('--accent-color <#rrggbb>', 'the accent colour of the page')
    .option('--clear-accent-color', 'use the default colour')
    .option('--support-email <email>', 'how shoppers reach the store ("" clears it)')
    .option('--support-url <https-url>', 'a contact or help page ("" clears it)')
    .option('--lost-after-days <days>', 'a parcel may be reported lost after this many days without a carrier scan (default 7)')
    .option('--after-delivery-days <days>', 'damage, missing items and theft may be reported up to this many days after delivery (default 30)')
    .option('--logo <file>', 'a JPEG, PNG or WebP logo (re-encoded as PNG, at most 512 px)')
    .option('--remove-logo', 'remove the logo')
    .action(action(merchantClaimPage));
  merchant
    .command('connect')
    .description('let a merchant take messages from a platform')
    .option('--merchant <slug>', 'the merchant (required)')
    .option('--platform <slug>', 'the platform (required)')
    .action(action(merchantConnect));
}
