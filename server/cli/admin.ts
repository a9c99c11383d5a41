// npm run admin -- <command>: creates merchants and issues or revokes their API keys, on the same
// database as the server (DATABASE_URL, else the embedded cluster under DATA_DIR, reused when the
// server is running). The CLI only parses, validates, calls the domain and prints.
//
// Exit codes: 0 done; 1 the operation failed (the domain said no, or the database did);
// 2 bad usage or configuration, reported before any database is touched.
// With --json, stdout carries exactly one JSON object, the result or {error, error_code, errors}.
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { Command, CommanderError } from 'commander';
import { z } from 'zod';
import type { ErrorCode, FieldError } from '../../contract/errors.js';
import { centsToMajorString } from '../../contract/money.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { MerchantCreateOptions, KeyCreateOptions, KeyRevokeOptions, MerchantUpdateOptions, PlatformCreateOptions, MerchantConnectOptions, ClaimSetStatusOptions, BillingReportOptions, PrivacyMerchantOptions, UserCreateOptions, MerchantClaimPageOptions, ClaimCreateOptions } from './options.js';
import { readFile } from 'node:fs/promises';
import { claimPageSettings, removeStoreLogo, setStoreLogo, updateClaimPage } from '../domain/claims/claim-page.js';
import { toClaimPageResponse } from '../domain/claims/claim-page-payload.js';
import { composeCli } from '../compose.js';
import type { Database } from '../db/client.js';
import type { Actor } from '../domain/access/actor.js';
import { resolveDatabase } from '../db/resolve.js';
import { issueApiKey, revokeApiKey, type IssuedKey } from '../domain/access/api-keys.js';
import { CLAIM_REASONS, CLAIM_STATUSES } from '../../contract/claims.js';
import { billingStatement, type BillingStatementRecord } from '../domain/billing/billing.js';
import { toBillingStatementResponse } from '../domain/billing/statement-payload.js';
import { createClaim, setClaimStatus } from '../domain/claims/claims.js';
import { AppError } from '../domain/kernel/errors.js';
import { toClaimResponse } from '../domain/claims/claim-payload.js';
import { connectStore, createPlatform, MIN_SECRET_LENGTH } from '../domain/platforms/platforms.js';
import { createMerchantUser, SETUP_LINK_TTL_MS } from '../domain/access/merchant-users.js';
import { listPrivacyRequests, type PrivacyRequestRecord } from '../domain/privacy/privacy-requests.js';
import { cancelStoreRedaction } from '../domain/privacy/store-redaction.js';
import { createStore, findStoreBySlug, updateStoreDeclarations, type StoreContext } from '../domain/stores/stores.js';
import { systemClock } from '../domain/kernel/clock.js';

/** The operator running the CLI, as the audit log records it: the system user's name. */
function operator(): Actor {
  try {
    return { kind: 'operator', name: userInfo().username };
  } catch {
    return { kind: 'operator', name: process.env.USER ?? 'unknown' };
  }
}

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** Wire codes of the API, plus one for what only a CLI can get wrong. */
type CliErrorCode = ErrorCode | 'invalid_configuration';

/** A command line that cannot run: exit 2, nothing touched. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly code: CliErrorCode = 'invalid_request',
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** What a command prints: one JSON object with --json, else a few lines for a person. */
interface Report {
  json: Record<string, unknown>;
  lines: string[];
}

function parseOptions<Output>(schema: z.ZodType<Output, z.ZodTypeDef, unknown>, command: Command): Output {
  const parsed = schema.safeParse(command.opts());
  if (parsed.success) return parsed.data;
  const fieldErrors = parsed.error.issues.map((issue) => ({
    field: flagOf(command, String(issue.path[0] ?? '')),
    message: issue.message,
  }));
  const summary = fieldErrors.map((error) => `${error.field} ${error.message}`).join('; ');
  const noun = fieldErrors.length === 1 ? 'option' : 'options';
  throw new UsageError(`invalid ${noun}: ${summary}`, 'invalid_request', fieldErrors);
}

function flagOf(command: Command, attribute: string): string {
  return command.options.find((option) => option.attributeName() === attribute)?.long ?? attribute;
}

// ---------------------------------------------------------------------------------------------
// Database: resolved only once the options are known to be good, and always released.

async function withDatabase<T>(run: (db: Database) => Promise<T>): Promise<T> {
  const config = readConfig();
  const database = await resolveDatabase(config);
  const { db, stop } = composeCli(database.url);
  try {
    return await run(db);
  } finally {
    await stop();
    // A no-op when the cluster was already running (the server's): only ours is stopped.
    await database.embedded?.stop();
  }
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, 'invalid_configuration');
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Commands.

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

async function keyCreate(command: Command): Promise<Report> {
  const options = parseOptions(KeyCreateOptions, command);
  const issued = await withDatabase((db) =>
    issueApiKey(db, operator(), { storeSlug: options.merchant, mode: options.mode, scope: options.account ? 'account' : 'store' }),
  );
  return { json: { key: keyJson(issued) }, lines: describeKey(issued) };
}

async function keyRevoke(command: Command): Promise<Report> {
  const options = parseOptions(KeyRevokeOptions, command);
  const revoked = await withDatabase((db) => revokeApiKey(db, operator(), options.id, new Date()));
  return {
    json: { revoked: { id: revoked.id, revoked_at: revoked.revokedAt.toISOString() } },
    lines: [`Revoked API key ${revoked.id} (revoked at ${revoked.revokedAt.toISOString()}).`],
  };
}

async function merchantUpdate(command: Command): Promise<Report> {
  const options = parseOptions(MerchantUpdateOptions, command);
  const protectionSkus = options.clearProtectionSkus ? [] : options.protectionSku;
  const store = await withDatabase((db) =>
    updateStoreDeclarations(db, operator(), options.slug, {
      protectionSkus,
      quoteOrigin: options.quoteOrigin,
      clientProfile: options.clientProfile,
      woocommerceWebhookSecret: options.clearWoocommerceWebhookSecret ? null : options.woocommerceWebhookSecret,
      personalDataRetentionDays: options.personalDataRetentionDays,
    }),
  );
  return { json: { store: storeJson(store) }, lines: [`Updated merchant "${store.slug}".`, ...describeStore(store).slice(1, 3)] };
}

async function platformCreate(command: Command): Promise<Report> {
  const options = parseOptions(PlatformCreateOptions, command);
  // Without --secret one is made here, so it never has to pass through a shell history.
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const platform = await withDatabase((db) => createPlatform(db, operator(), options.slug, secret));
  const shown = options.secret === undefined;
  return {
    json: { platform: { id: platform.id, slug: platform.slug, ...(shown ? { secret } : {}) } },
    lines: [
      `Created platform "${platform.slug}" (id ${platform.id}).`,
      ...(shown ? [`  shared secret: ${secret}`, 'Give it to the platform to sign its messages; it is not shown again.'] : []),
      `Next: npm run admin -- merchant connect --merchant <slug> --platform ${platform.slug}`,
    ],
  };
}

async function merchantConnect(command: Command): Promise<Report> {
  const options = parseOptions(MerchantConnectOptions, command);
  const link = await withDatabase((db) => connectStore(db, operator(), options.merchant, options.platform));
  return {
    json: { connected: link },
    lines: [`Merchant "${link.store}" now takes messages from platform "${link.platform}" at POST /api/webhooks/${link.platform}.`],
  };
}

/** A privacy request as the CLI prints it: ids, dates and counts (a request holds no personal data). */
function privacyRequestJson(request: PrivacyRequestRecord): Record<string, unknown> {
  return {
    id: request.id,
    kind: request.kind,
    status: request.status,
    actor: `${request.actorKind}:${request.actorId}`,
    source_request_id: request.sourceRequestId,
    received_at: request.receivedAt.toISOString(),
    due_at: request.dueAt?.toISOString() ?? null,
    completed_at: request.completedAt?.toISOString() ?? null,
    cancelled_at: request.cancelledAt?.toISOString() ?? null,
    orders_matched: request.ordersMatched,
    orders_erased: request.ordersErased,
    orders_withheld: request.ordersWithheld,
  };
}

const PRIVACY_LIST_LIMIT = 50;

async function privacyList(command: Command): Promise<Report> {
  const options = parseOptions(PrivacyMerchantOptions, command);
  const requests = await withDatabase(async (db) => listPrivacyRequests(db, (await findStoreBySlug(db, options.merchant)).id, PRIVACY_LIST_LIMIT));
  return {
    json: { requests: requests.map(privacyRequestJson) },
    lines:
      requests.length === 0
        ? [`Merchant "${options.merchant}" has received no privacy request.`]
        : requests.map(
            (request) =>
              `${request.receivedAt.toISOString()}  ${request.kind.padEnd(21)} ${request.status.padEnd(9)} erased ${request.ordersErased}, withheld ${request.ordersWithheld}` +
              (request.status === 'pending' && request.dueAt ? `, due ${request.dueAt.toISOString()}` : '') +
              `  (${request.id})`,
          ),
  };
}

async function privacyCancelStoreRedaction(command: Command): Promise<Report> {
  const options = parseOptions(PrivacyMerchantOptions, command);
  const { request } = await withDatabase(async (db) => cancelStoreRedaction(db, { storeId: (await findStoreBySlug(db, options.merchant)).id, actor: operator() }, null, new Date()));
  return { json: { request: privacyRequestJson(request) }, lines: [`The erasure of merchant "${options.merchant}" is cancelled (${request.id}).`] };
}

async function userCreate(command: Command): Promise<Report> {
  const options = parseOptions(UserCreateOptions, command);
  const config = readConfig();
  const { user, setupPath } = await withDatabase(async (db) =>
    createMerchantUser(db, operator(), { storeId: (await findStoreBySlug(db, options.merchant)).id, email: options.email, role: options.role }, new Date()),
  );
  const setupUrl = `${config.publicUrl}${setupPath}`;
  const hours = SETUP_LINK_TTL_MS / 3_600_000;
  return {
    json: { user: { id: user.id, email: user.email, role: user.role, merchant: options.merchant }, setup_url: setupUrl, setup_expires_in_hours: hours },
    lines: [
      `Created ${user.role} ${user.email} of merchant "${options.merchant}".`,
      `Setup link (shown once, valid ${hours} h): ${setupUrl}`,
    ],
  };
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
    const store = await findStoreBySlug(db, options.slug);
    const now = new Date();
    await updateClaimPage(db, operator(), store.id, patch, now);
    if (logo !== undefined) await setStoreLogo(db, operator(), store.id, logo, now);
    if (options.removeLogo) await removeStoreLogo(db, operator(), store.id, now);
    return claimPageSettings(db, { id: store.id });
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

async function claimCreate(command: Command): Promise<Report> {
  const options = parseOptions(ClaimCreateOptions, command);
  const claim = await withDatabase(async (db) => {
    const store = await findStoreBySlug(db, options.merchant);
    const input = {
      source_order_id: options.order,
      reason: options.reason,
      ...(options.trackingNumber === undefined ? {} : { tracking_number: options.trackingNumber }),
      ...(options.description === undefined ? {} : { description: options.description }),
    };
    return createClaim(db, { store, actor: operator(), mode: 'live' }, input, new Date());
  });
  return { json: { claim: toClaimResponse(claim) }, lines: [`Filed claim ${claim.id} on order "${claim.sourceOrderId}" (${claim.reason}).`] };
}

async function claimSetStatus(command: Command): Promise<Report> {
  const options = parseOptions(ClaimSetStatusOptions, command);
  const claim = await withDatabase((db) => setClaimStatus(db, operator(), options.id, options.status, systemClock, options.note));
  return {
    json: { claim: toClaimResponse(claim) },
    lines: [`Claim ${claim.id} on order "${claim.sourceOrderId}" is ${claim.status}.`],
  };
}

async function billingReport(command: Command): Promise<Report> {
  const options = parseOptions(BillingReportOptions, command);
  const { store, statement } = await withDatabase(async (db) => {
    const store = await findStoreBySlug(db, options.merchant);
    return { store, statement: await billingStatement(db, store.id, options.month) };
  });
  // The same object as GET /v1/billing/statements answers.
  return { json: toBillingStatementResponse(statement), lines: describeStatement(store, statement) };
}

// ---------------------------------------------------------------------------------------------
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

function keyJson(issued: IssuedKey): Record<string, unknown> {
  return {
    id: issued.id,
    key: issued.key,
    mode: issued.mode,
    scope: issued.scope,
    merchant: issued.storeSlug,
    last4: issued.last4,
  };
}

function describeKey(issued: IssuedKey): string[] {
  return [
    `Issued a ${issued.mode} ${issued.scope} key for merchant "${issued.storeSlug}" (id ${issued.id}):`,
    `  ${issued.key}`,
    'It is shown this once: only its SHA-256 hash is stored, so it cannot be shown again.',
  ];
}

function describeStatement(store: StoreContext, statement: BillingStatementRecord): string[] {
  const { premiums, repricings, credits } = statement;
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  return [
    `Billing statement of merchant "${store.slug}" (id ${store.id}) for ${statement.month} (UTC), in USD:`,
    `  premiums:   ${centsToMajorString(premiums.totalCents)} (${plural(premiums.count, 'booking')})`,
    `  repricings: ${centsToMajorString(repricings.totalCents)} (${plural(repricings.count, 're-pricing')})`,
    `  credits:    ${centsToMajorString(credits.totalCents)} (${plural(credits.count, 'reversal')})`,
    ...credits.weeks.map(
      (week) => `    ${week.week} (from ${week.startsOn}): ${centsToMajorString(week.totalCents)} (${plural(week.count, 'reversal')})`,
    ),
    `  net total:  ${centsToMajorString(statement.netCents)}`,
  ];
}

// ---------------------------------------------------------------------------------------------
// Program.

/** Repeatable option; starts from undefined where "not given" must differ from "none". */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Runs a command and prints its report; errors travel up to main(). */
function action(run: (command: Command) => Promise<Report>) {
  return async (_options: unknown, command: Command): Promise<void> => {
    const report = await run(command);
    const json = command.optsWithGlobals<{ json?: boolean }>().json === true;
    await write(process.stdout, json ? `${JSON.stringify(report.json)}\n` : `${report.lines.join('\n')}\n`);
  };
}

function buildProgram(): Command {
  const program = new Command('admin')
    .description('Administer the shipment protection service: merchants, their API keys, claims and billing.')
    .option('--json', 'print one JSON object on stdout instead of text')
    // main() prints every error itself, in the chosen format and with the CLI's exit codes.
    .exitOverride()
    .configureOutput({ outputError: () => {} });

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

  const platform = program.command('platform').description('manage commerce platforms that push messages');
  platform
    .command('create')
    .description('register a platform and its shared signing secret')
    .option('--slug <slug>', 'identifier in the webhook URL, /api/webhooks/<slug> (required)')
    .option('--secret <secret>', `shared secret, at least ${MIN_SECRET_LENGTH} characters (default: a random one, printed once)`)
    .action(action(platformCreate));

  const key = program.command('key').description("manage merchants' API keys");
  key
    .command('create')
    .description('issue an API key; its plaintext is printed once and never stored')
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .option('--mode <mode>', 'live or test (required)')
    .option('--account', 'an account key, not scoped to one store')
    .action(action(keyCreate));
  key
    .command('revoke')
    .description('revoke an API key at once')
    .option('--id <id>', 'id of the key, as printed by key create (required)')
    .action(action(keyRevoke));

  const claim = program.command('claim').description("manage shoppers' claims");
  claim
    .command('create')
    .description('file a claim on a protected order for a shopper (as the operator; no claim windows apply)')
    .option('--merchant <slug>', 'the merchant (required)')
    .option('--order <source_order_id>', 'the order (required)')
    .option('--reason <reason>', `what went wrong: ${CLAIM_REASONS.join(', ')} (required)`)
    .option('--tracking-number <number>', 'the parcel, when the claim is about one')
    .option('--description <text>', 'what happened')
    .action(action(claimCreate));
  claim
    .command('set-status')
    .description(`move a claim to a new status (${CLAIM_STATUSES.join(', ')}); denied and closed are final`)
    .option('--id <id>', 'id of the claim (required)')
    .option('--status <status>', 'the new status (required)')
    .option('--note <text>', 'why, kept in the claim history')
    .action(action(claimSetStatus));

  const user = program.command('user').description("merchants' console users");
  user
    .command('create')
    .description('create a console user; prints a one-time link (24 h) where the password is chosen')
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .option('--email <email>', 'the login email (required)')
    .option('--role <role>', 'owner (everything), admin (everything but users) or viewer (read only) (required)')
    .action(action(userCreate));

  const privacy = program.command('privacy').description("merchants' privacy requests (erasures and data requests)");
  privacy
    .command('list')
    .description(`list a merchant's privacy requests, newest first (the last ${PRIVACY_LIST_LIMIT})`)
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .action(action(privacyList));
  privacy
    .command('cancel-store-redaction')
    .description("cancel a merchant's pending store erasure (its platform's store.redact) before it is due")
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .action(action(privacyCancelStoreRedaction));

  const billing = program.command('billing').description("merchants' billing");
  billing
    .command('report')
    .description("print a merchant's billing statement for one month (UTC), as GET /v1/billing/statements answers it")
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .option('--month <YYYY-MM>', 'the calendar month, e.g. 2026-11 (required)')
    .action(action(billingReport));

  return program;
}

// ---------------------------------------------------------------------------------------------
// Errors and exit.

interface Failure {
  exitCode: number;
  code: CliErrorCode;
  message: string;
  fieldErrors: FieldError[];
  /** Commander has already shown the help, so a person needs no extra line. */
  helpShown: boolean;
}

function classify(error: unknown): Failure {
  if (error instanceof CommanderError) {
    const helpShown = error.code === 'commander.help';
    const message = helpShown ? 'a command is required' : error.message.replace(/^error: /, '');
    return { exitCode: EXIT_USAGE, code: 'invalid_request', message, fieldErrors: [], helpShown };
  }
  if (error instanceof UsageError) {
    return { exitCode: EXIT_USAGE, code: error.code, message: error.message, fieldErrors: error.fieldErrors, helpShown: false };
  }
  if (error instanceof AppError) {
    return { exitCode: EXIT_FAILED, code: error.code, message: error.message, fieldErrors: error.fieldErrors, helpShown: false };
  }
  return { exitCode: EXIT_FAILED, code: 'internal_error', message: describeUnexpected(error), fieldErrors: [], helpShown: false };
}

/**
 * One line, never a stack: Prisma puts a code frame of the call site before the cause, which comes
 * last; a refused connection may be an AggregateError with no message of its own.
 */
function describeUnexpected(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    return error.errors.map((inner: unknown) => describeUnexpected(inner)).join('; ') || 'unknown error';
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.trim().split('\n').at(-1)?.trim() || 'unknown error';
}

async function report(failure: Failure, json: boolean): Promise<void> {
  if (json) {
    const body = { error: failure.message, error_code: failure.code, errors: failure.fieldErrors };
    await write(process.stdout, `${JSON.stringify(body)}\n`);
  } else if (!failure.helpShown) {
    const hint = failure.code === 'invalid_request' ? '\n(add --help for usage)' : '';
    await write(process.stderr, `error: ${failure.message}${hint}\n`);
  }
}

/** Resolves once the text is handed to the OS, so that process.exit cannot cut it off. */
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    // --help and the help command also arrive here, as a CommanderError with exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    const failure = classify(error);
    await report(failure, program.opts<{ json?: boolean }>().json === true);
    return failure.exitCode;
  }
}

// Exit explicitly: a pool or cluster handle left open by a failure must not keep the CLI alive.
main(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${describeUnexpected(error)}\n`);
    process.exit(EXIT_FAILED);
  },
);
