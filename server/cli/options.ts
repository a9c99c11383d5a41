// The admin CLI's option schemas. Commander hands over strings; zod checks every option at once so
// that one run names every bad option, not only the first. The rules themselves live in the domain
// (stores.ts, slug.ts), which enforces them for every door; the options only read the strings.
import { z } from 'zod';
import { BillingMonth } from '../../contract/billing.js';
import { CLAIM_REASONS, CLAIM_STATUSES, RESOLUTION_TYPES } from '../../contract/claims.js';
import { ApiKeyName } from '../../contract/console/api-keys.js';
import { ClaimPagePatch, CLAIM_WINDOW_DAYS } from '../../contract/console/settings.js';
import { majorTextToCents, QUOTE_AMOUNT_PATTERN } from '../../contract/money.js';
import { MIN_SECRET_LENGTH } from '../domain/platforms/index.js';
import { CLIENT_PROFILES, isUsableSku, MAX_RATE_BPS, MAX_RETENTION_DAYS, SKU_RULE, SLUG_PATTERN, SLUG_RULE } from '../domain/stores/index.js';


const ClientProfileOption = z.enum(CLIENT_PROFILES, { errorMap: () => ({ message: `must be ${CLIENT_PROFILES.join(' or ')}` }) });

export const Slug = z.string({ required_error: 'is required' }).regex(SLUG_PATTERN, SLUG_RULE);

export const Money = z
  .string()
  .regex(QUOTE_AMOUNT_PATTERN, 'must be an amount in major units with at most two decimals, e.g. 0.98 or 5000')
  .transform(majorTextToCents);

export const MerchantCreateOptions = z.object({
  slug: Slug,
  name: z
    .string({ required_error: 'is required' })
    .refine((name) => name.trim() !== '', 'must not be blank'),
  // One check and one message: a regex plus a range check would report "abc" twice.
  rateBps: z
    .string()
    .refine((text) => /^\d{1,5}$/.test(text) && Number(text) <= MAX_RATE_BPS, `must be an integer from 0 to ${MAX_RATE_BPS}`)
    .transform(Number),
  minPremium: Money,
  maxCovered: Money.optional(),
  protectionSku: z.array(z.string().refine(isUsableSku, SKU_RULE)),
  quoteOrigin: z.enum(['backend', 'browser'], { errorMap: () => ({ message: 'must be backend or browser' }) }),
  clientProfile: ClientProfileOption,
});

export const KeyCreateOptions = z.object({
  merchant: Slug,
  mode: z.enum(['live', 'test'], {
    errorMap: (issue) => ({ message: issue.code === 'invalid_type' ? 'is required' : 'must be live or test' }),
  }),
  account: z.boolean().default(false),
  name: ApiKeyName.optional(),
});

// The domain would answer "not found" for most malformed ids, but one it lets through reaches
// PostgreSQL's uuid cast and fails there; a UUID check here makes any malformed id a usage error.
export const KeyRevokeOptions = z.object({
  id: z
    .string({ required_error: 'is required' })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a key id (a UUID), as printed by key create'),
});

export const Sku = z.string().refine(isUsableSku, SKU_RULE);

export const MerchantUpdateOptions = z
  .object({
    slug: Slug,
    protectionSku: z.array(Sku).optional(),
    clearProtectionSkus: z.boolean().default(false),
    quoteOrigin: z.enum(['backend', 'browser'], { errorMap: () => ({ message: 'must be backend or browser' }) }).optional(),
    clientProfile: ClientProfileOption.optional(),
    woocommerceWebhookSecret: z.string().optional(),
    clearWoocommerceWebhookSecret: z.boolean().default(false),
    personalDataRetentionDays: z
      .string()
      .refine((text) => /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_RETENTION_DAYS, `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}`)
      .transform(Number)
      .optional(),
  })
  .refine(
    (o) =>
      o.protectionSku !== undefined ||
      o.clearProtectionSkus ||
      o.quoteOrigin !== undefined ||
      o.clientProfile !== undefined ||
      o.woocommerceWebhookSecret !== undefined ||
      o.clearWoocommerceWebhookSecret ||
      o.personalDataRetentionDays !== undefined,
    {
      message:
        'nothing to change: give --protection-sku, --clear-protection-skus, --quote-origin, --client-profile, ' +
        '--woocommerce-webhook-secret, --clear-woocommerce-webhook-secret or --personal-data-retention-days',
      path: ['slug'],
    },
  );

export const PlatformCreateOptions = z.object({
  slug: z.string({ required_error: 'is required' }).regex(SLUG_PATTERN, SLUG_RULE),
  secret: z.string().min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`).optional(),
});

export const MerchantConnectOptions = z.object({
  merchant: Slug,
  platform: z.string({ required_error: 'is required' }).regex(SLUG_PATTERN, SLUG_RULE),
});

export const UserCreateOptions = z.object({
  merchant: Slug,
  email: z.string({ required_error: 'is required' }).trim().min(3, 'must be an email address').max(254).email('must be an email address'),
  role: z.enum(['owner', 'admin', 'viewer'], {
    errorMap: (issue) => ({ message: issue.code === 'invalid_type' ? 'is required' : 'must be owner, admin or viewer' }),
  }),
});

/** The privacy commands name the merchant only. */
export const PrivacyMerchantOptions = z.object({ merchant: Slug });

export const ClaimSetStatusOptions = z.object({
  id: z
    .string({ required_error: 'is required' })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a claim id (a UUID)'),
  status: z.enum(CLAIM_STATUSES, { errorMap: () => ({ message: `must be one of ${CLAIM_STATUSES.join(', ')}` }) }),
  note: z.string().max(2000, 'must be at most 2000 characters').optional(),
  resolution: z.enum(RESOLUTION_TYPES, { errorMap: () => ({ message: `must be one of ${RESOLUTION_TYPES.join(', ')}` }) }).optional(),
  amount: Money.optional(),
  payout: Money.optional(),
  payoutReference: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
});

export const BillingReportOptions = z.object({
  merchant: Slug,
  month: BillingMonth,
});

/** Validates a command's options; the error names each bad option by its flag. */

const WindowDays = z
  .string()
  .refine(
    (text) => /^\d{1,3}$/.test(text) && Number(text) >= CLAIM_WINDOW_DAYS.min && Number(text) <= CLAIM_WINDOW_DAYS.max,
    `must be a whole number of days from ${CLAIM_WINDOW_DAYS.min} to ${CLAIM_WINDOW_DAYS.max}`,
  )
  .transform(Number);

/** The claim page's settings; the values are then checked by the same schema as the console's. */
const claimPageField = <K extends 'accent_color' | 'support_email' | 'support_url'>(name: K) => ClaimPagePatch.shape[name].unwrap().unwrap();
/** An empty text clears an optional contact. */
const orEmpty = <T extends z.ZodTypeAny>(schema: T) => z.literal('').or(schema);

export const MerchantClaimPageOptions = z
  .object({
    slug: Slug,
    accentColor: claimPageField('accent_color').optional(),
    clearAccentColor: z.boolean().default(false),
    supportEmail: orEmpty(claimPageField('support_email')).optional(),
    supportUrl: orEmpty(claimPageField('support_url')).optional(),
    lostAfterDays: WindowDays.optional(),
    afterDeliveryDays: WindowDays.optional(),
    logo: z.string().min(1, 'must be a file path').optional(),
    removeLogo: z.boolean().default(false),
  })
  .refine((o) => !(o.logo !== undefined && o.removeLogo), { message: 'give --logo or --remove-logo, not both', path: ['logo'] });

export const ClaimCreateOptions = z.object({
  merchant: Slug,
  order: z.string({ required_error: 'is required' }).min(1, 'is required'),
  reason: z.enum(CLAIM_REASONS, { errorMap: () => ({ message: `must be one of ${CLAIM_REASONS.join(', ')}` }) }),
  trackingNumber: z.string().min(1).optional(),
  description: z.string().max(5000, 'must be at most 5000 characters').optional(),
});
