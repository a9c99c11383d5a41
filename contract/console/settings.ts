// The console's settings: the store's integration declarations (editable by an admin), its pricing
// terms (read only: the operator sets them), and its users and invitations (owner only).
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string, text } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';
import { ConsoleRoleSchema, SETUP_LINK_TTL_HOURS } from './session.js';

const c = initContract();

export const ConsoleSettings = z.object({
  store: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  pricing: z.object({
    rate_bps: z.number().int().describe('Basis points of the covered amount.'),
    min_premium_cents: z.number().int(),
    max_covered_cents: z.number().int().nullable(),
  }),
  protection_skus: z.array(z.string()).describe('Declared in addition to the built-in protection SKUs.'),
  quote_origin: z.enum(['backend', 'browser']),
  client_profile: z.enum(['standard', 'route']),
  personal_data_retention_days: z.number().int(),
  claim_page: z.object({
    url_path: z.string().describe('Where shoppers file claims: /claims/{store_slug}.'),
    accent_color: z.string().nullable().describe('#rrggbb, or null for the default.'),
    support_email: z.string().nullable(),
    support_url: z.string().nullable(),
    logo_url: z.string().nullable().describe('The logo as the claim page shows it, or null.'),
    lost_after_days: z.number().int().describe('Shoppers may report a parcel lost this many days after its last scan.'),
    after_delivery_days: z.number().int().describe('Shoppers may report damage, missing items or theft up to this many days after delivery.'),
  }),
});

/** What a store may set of its claim page (the console and the CLI take the same). */
/** A claim window, in days: the one range, which the domain checks too, whatever the door. */
export const CLAIM_WINDOW_DAYS = { min: 1, max: 365 } as const;
const WindowDays = z
  .number()
  .int('must be a whole number')
  .min(CLAIM_WINDOW_DAYS.min, `must be at least ${CLAIM_WINDOW_DAYS.min}`)
  .max(CLAIM_WINDOW_DAYS.max, `must be at most ${CLAIM_WINDOW_DAYS.max}`);

export const ClaimPagePatch = z.object({
  accent_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
    .nullable()
    .optional()
    .describe('null returns to the default.'),
  support_email: string(254, z.string().email('must be an email address')).nullable().optional(),
  support_url: string(2000, z.string().url('must be a URL').regex(/^https:\/\//i, 'must start with https://')).nullable().optional(),
  lost_after_days: WindowDays.optional(),
  after_delivery_days: WindowDays.optional(),
});

export const ConsoleSettingsPatch = z.object({
  protection_skus: z.array(text(255)).max(50, 'must have at most 50 SKUs').optional(),
  quote_origin: z.enum(['backend', 'browser'], { errorMap: () => ({ message: 'must be backend or browser' }) }).optional(),
  client_profile: z.enum(['standard', 'route'], { errorMap: () => ({ message: 'must be standard or route' }) }).optional(),
  claim_page: ClaimPagePatch.optional(),
});

export const ConsoleUser = z.object({
  id: z.string(),
  email: z.string(),
  role: ConsoleRoleSchema,
  password_set: z.boolean().describe('False until the setup link was used.'),
  created_at: DateTime,
  disabled_at: DateTime.nullable(),
});

export const consoleSettingsContract = c.router({
  get: {
    method: 'GET',
    path: '/console/api/settings',
    responses: { 200: ConsoleSettings, ...pickErrors(401, 500) },
    metadata: sessionRoute('viewer'),
    summary: "The store's settings",
  },
  update: {
    method: 'PATCH',
    path: '/console/api/settings',
    body: ConsoleSettingsPatch,
    responses: { 200: ConsoleSettings, ...pickErrors(400, 401, 403, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Change the integration declarations',
  },
  setLogo: {
    method: 'PUT',
    path: '/console/api/settings/logo',
    body: c.type<Blob>(),
    responses: { 200: ConsoleSettings, ...pickErrors(400, 401, 403, 413, 500) },
    metadata: { ...sessionRoute('admin'), body: 'image' },
    summary: "Set the claim page's logo: the image itself as the body (JPEG, PNG or WebP, at most 10 MB)",
  },
  removeLogo: {
    method: 'DELETE',
    path: '/console/api/settings/logo',
    body: c.noBody(),
    responses: { 200: ConsoleSettings, ...pickErrors(401, 403, 500) },
    metadata: sessionRoute('admin'),
    summary: "Remove the claim page's logo",
  },
  users: {
    method: 'GET',
    path: '/console/api/users',
    responses: { 200: z.object({ data: z.array(ConsoleUser) }), ...pickErrors(401, 403, 500) },
    metadata: sessionRoute('owner'),
    summary: "The store's console users",
  },
  invite: {
    method: 'POST',
    path: '/console/api/users',
    body: z.object({ email: string(254, z.string().email('must be an email address')), role: ConsoleRoleSchema }),
    responses: { 201: z.object({ user: ConsoleUser, setup_url: z.string().describe(`Shown once: send it to the person; it works once, for ${SETUP_LINK_TTL_HOURS} hours.`) }), ...pickErrors(400, 401, 403, 409, 500) },
    metadata: sessionRoute('owner'),
    summary: 'Invite a user: a one-time setup link, shown once',
  },
  disable: {
    method: 'POST',
    path: '/console/api/users/:id/disable',
    pathParams: z.object({ id: z.string().uuid('must be a user id') }),
    body: c.noBody(),
    responses: { 200: ConsoleUser, ...pickErrors(400, 401, 403, 404, 409, 500) },
    metadata: sessionRoute('owner'),
    summary: 'Disable a user: their sessions end at once',
  },
  enable: {
    method: 'POST',
    path: '/console/api/users/:id/enable',
    pathParams: z.object({ id: z.string().uuid('must be a user id') }),
    body: c.noBody(),
    responses: { 200: ConsoleUser, ...pickErrors(400, 401, 403, 404, 500) },
    metadata: sessionRoute('owner'),
    summary: 'Enable a disabled user again: they log in with the password they had',
  },
});
