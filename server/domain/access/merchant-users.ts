// The merchant console's users (docs/console.md): one store each, a role, and a password hashed
// with argon2id. A user is created without a password; a one-time setup link (24 hours) lets them
// choose it. The operator's CLI creates a store's first owner; owners invite others the same way.
import { createHash, randomBytes } from 'node:crypto';
import { SETUP_LINK_TTL_HOURS } from '../../../contract/console/session.js';
import { hash, verify } from '@node-rs/argon2';
import type { Database } from '../../db/client.js';
import type { MerchantUser, MerchantUserRole } from '../../db/generated/client.js';
import type { Scope } from './actor.js';
import { recordAudit } from './audit.js';
import { AppError } from '../kernel/index.js';

export type { MerchantUser, MerchantUserRole };

export const SETUP_LINK_TTL_MS = SETUP_LINK_TTL_HOURS * 3600 * 1000;
const ROLE_RANK: Record<MerchantUserRole, number> = { viewer: 0, admin: 1, owner: 2 };

/** Whether a user of `role` may do what needs `needed`. */
export const roleAllows = (role: MerchantUserRole, needed: MerchantUserRole): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];

/** Emails are one account however they are typed. */
export const normalizedEmail = (email: string): string => email.trim().toLowerCase();

/** A random token for a link or a cookie, and the SHA-256 the database keeps instead. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}
export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

// argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane): about 40 ms here.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

/** A hash of no password, verified against when the account is unknown, so both answers take as long. */
const UNKNOWN_ACCOUNT_HASH = hashPassword(randomBytes(24).toString('base64'));

export interface CreatedUser {
  user: MerchantUser;
  /** The setup link's token, shown once (only its hash is stored). */
  setupToken: string;
  /** The one-time setup link's path, with the token. */
  setupPath: string;
}

/** Creates a user of the store with a setup link; 409 if the email already has an account. */
export async function createMerchantUser(
  db: Database,
  scope: Scope,
  input: { email: string; role: MerchantUserRole },
  now: Date,
): Promise<CreatedUser> {
  const email = normalizedEmail(input.email);
  const setup = newToken();
  const user = await db.$transaction(async (tx) => {
    const [created] = await tx.merchantUser.createManyAndReturn({ data: [{ storeId: scope.store.id, email, role: input.role, createdAt: now }], skipDuplicates: true });
    if (created === undefined) throw new AppError('conflict', 'A user with this email exists already.');
    await tx.userSetupToken.create({ data: { tokenHash: setup.hash, userId: created.id, createdAt: now, expiresAt: new Date(now.getTime() + SETUP_LINK_TTL_MS) } });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'user.created', subject: { type: 'merchant_user', id: created.id }, details: { role: input.role }, at: now });
    return created;
  });
  return { user, setupToken: setup.token, setupPath: setupPath(setup.token) };
}

export const setupPath = (token: string): string => `/console/setup?token=${encodeURIComponent(token)}`;

/** What a setup link that does not work is answered: one sentence whatever the cause, naming no one. */
const SETUP_LINK_REFUSED = 'This setup link is unknown, used or expired; ask for a new one.';

/**
 * Whether a setup link's token would set a password now (unused, unexpired, its user enabled), so
 * the page can say a spent link is spent before offering the form. A read: it spends nothing and
 * names no one (404 otherwise, as the setup answers). Its cost does not depend on the answer: the
 * token is hashed and looked up by that hash in one indexed query, whatever it finds.
 */
export async function checkSetupToken(db: Database, token: string, now: Date): Promise<void> {
  const found = await db.userSetupToken.findFirst({
    where: { tokenHash: tokenHash(token), usedAt: null, expiresAt: { gt: now }, user: { disabledAt: null } },
    select: { tokenHash: true },
  });
  if (found === null) throw new AppError('not_found', SETUP_LINK_REFUSED);
}

/**
 * Sets the password with a setup link's token, once: the token is spent in the same statement that
 * finds it, so two uses cannot both succeed. Every session of the user ends (a password change).
 */
export async function setPasswordWithToken(db: Database, token: string, password: string, now: Date): Promise<MerchantUser> {
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const [spent] = await tx.userSetupToken.updateManyAndReturn({
      where: { tokenHash: tokenHash(token), usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (spent === undefined) throw new AppError('not_found', SETUP_LINK_REFUSED);
    const user = await tx.merchantUser.update({ where: { id: spent.userId }, data: { passwordHash, passwordChangedAt: now } });
    if (user.disabledAt !== null) throw new AppError('not_found', SETUP_LINK_REFUSED);
    await tx.consoleSession.deleteMany({ where: { userId: user.id } });
    await recordAudit(tx, { kind: 'console_user', userId: user.id }, { storeId: user.storeId, action: 'user.password_set', subject: { type: 'merchant_user', id: user.id }, at: now });
    return user;
  });
}

/**
 * The user whose email and password these are, or null. An unknown email costs the same argon2
 * verification as a known one, so the answer's timing tells nothing.
 */
export async function verifyLogin(db: Database, email: string, password: string): Promise<MerchantUser | null> {
  const user = await db.merchantUser.findUnique({ where: { email: normalizedEmail(email) } });
  const stored = user?.passwordHash ?? (await UNKNOWN_ACCOUNT_HASH);
  const matches = await verify(stored, password).catch(() => false);
  return matches && user !== null && user.passwordHash !== null && user.disabledAt === null ? user : null;
}

/** A store's users, oldest first. */
export async function listMerchantUsers(db: Database, scope: Scope): Promise<MerchantUser[]> {
  return db.merchantUser.findMany({ where: { storeId: scope.store.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** Disables a user of the store: they cannot log in, and every session of theirs ends now. */
export async function disableMerchantUser(db: Database, scope: Scope, userId: string, now: Date): Promise<MerchantUser> {
  const { actor } = scope;
  const storeId = scope.store.id;
  if (actor.kind === 'console_user' && userId === actor.userId) throw new AppError('conflict', 'You cannot disable yourself; ask another owner.');
  return db.$transaction(async (tx) => {
    const user = await tx.merchantUser.findFirst({ where: { id: userId, storeId } });
    if (user === null) throw new AppError('not_found', `No user with id "${userId}".`);
    if (user.disabledAt !== null) return user;
    const disabled = await tx.merchantUser.update({ where: { id: userId }, data: { disabledAt: now } });
    await tx.consoleSession.deleteMany({ where: { userId } });
    await recordAudit(tx, actor, { storeId, action: 'user.disabled', subject: { type: 'merchant_user', id: userId }, at: now });
    return disabled;
  });
}

/**
 * Enables a disabled user of the store again: they log in with the password they had (no session of
 * theirs survived the disabling). Enabling an enabled user changes nothing.
 */
export async function enableMerchantUser(db: Database, scope: Scope, userId: string, now: Date): Promise<MerchantUser> {
  const storeId = scope.store.id;
  return db.$transaction(async (tx) => {
    const [enabled] = await tx.merchantUser.updateManyAndReturn({ where: { id: userId, storeId, disabledAt: { not: null } }, data: { disabledAt: null } });
    if (enabled === undefined) {
      const user = await tx.merchantUser.findFirst({ where: { id: userId, storeId } });
      if (user === null) throw new AppError('not_found', `No user with id "${userId}".`);
      return user;
    }
    await recordAudit(tx, scope.actor, { storeId, action: 'user.enabled', subject: { type: 'merchant_user', id: userId }, at: now });
    return enabled;
  });
}

/**
 * Changes a logged-in user's password after checking the current one. Every session of the user
 * ends (a stolen session does not outlive the change); the caller opens a new one.
 */
export async function changePassword(db: Database, user: MerchantUser, currentPassword: string, newPassword: string, now: Date): Promise<MerchantUser> {
  const fresh = await db.merchantUser.findUniqueOrThrow({ where: { id: user.id } });
  if (fresh.passwordHash === null || !(await verify(fresh.passwordHash, currentPassword).catch(() => false))) {
    throw new AppError('invalid_request', 'The current password is not right.', [{ field: 'current_password', message: 'is not your current password' }]);
  }
  const passwordHash = await hashPassword(newPassword);
  return db.$transaction(async (tx) => {
    const changed = await tx.merchantUser.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: now } });
    await tx.consoleSession.deleteMany({ where: { userId: user.id } });
    await recordAudit(tx, { kind: 'console_user', userId: user.id }, { storeId: user.storeId, action: 'user.password_set', subject: { type: 'merchant_user', id: user.id }, at: now });
    return changed;
  });
}
