// Commerce platforms that push messages, and which stores take them (README, Platform webhooks).
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/client.js';
import type { PlatformCaches, Scope, ServiceScope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import { SLUG_PATTERN, SLUG_RULE, type StoreContext, toStoreContext } from '../stores/index.js';



export const MIN_SECRET_LENGTH = 16;

export interface PlatformRecord {
  id: string;
  slug: string;
  secret: string;
}

export async function createPlatform(db: Database, service: ServiceScope, slug: string, secret: string): Promise<{ id: string; slug: string }> {
  if (!SLUG_PATTERN.test(slug)) throw new AppError('invalid_request', 'The platform slug is not valid.', [{ field: 'slug', message: SLUG_RULE }]);
  if (secret.length < MIN_SECRET_LENGTH) throw new AppError('invalid_request', `The shared secret must be at least ${MIN_SECRET_LENGTH} characters.`);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.platform.create({ data: { slug, secret } });
      await recordAudit(tx, service.actor, { storeId: null, action: 'platform.created', subject: { type: 'platform', id: row.id }, details: { slug }, at: new Date() });
      return { id: row.id, slug: row.slug };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', `A platform with slug "${slug}" already exists.`);
    throw error;
  }
}

export async function findPlatform(db: Database, slug: string, caches?: PlatformCaches): Promise<PlatformRecord | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const cached = caches?.platforms.get(slug);
  if (cached !== undefined) return cached;
  const generation = caches?.platforms.generation() ?? 0;
  const platform = await db.platform.findUnique({ where: { slug }, select: { id: true, slug: true, secret: true } });
  if (platform !== null) caches?.platforms.set(slug, platform, generation);
  return platform;
}

/** Connects a store to a platform; connecting twice is a no-op. */
export async function connectStore(db: Database, scope: Scope, platformSlug: string): Promise<{ store: string; platform: string }> {
  const { store, actor } = scope;
  const platform = await db.platform.findUnique({ where: { slug: platformSlug } });
  if (!platform) throw new AppError('not_found', `No platform with slug "${platformSlug}".`);
  await db.$transaction(async (tx) => {
    const existing = await tx.storePlatform.findUnique({ where: { storeId_platformId: { storeId: store.id, platformId: platform.id } } });
    if (existing) return;
    await tx.storePlatform.create({ data: { storeId: store.id, platformId: platform.id } });
    const details = { platform: platform.slug };
    await recordAudit(tx, actor, { storeId: store.id, action: 'store.platform_connected', subject: { type: 'store', id: store.id }, details, at: new Date() });
  });
  return { store: store.slug, platform: platform.slug };
}

/** The platforms the store takes messages from, first connected first. */
export async function listConnectedPlatforms(db: Database, scope: Scope): Promise<Array<{ slug: string; connectedAt: Date }>> {
  const links = await db.storePlatform.findMany({ where: { storeId: scope.store.id }, include: { platform: { select: { slug: true } } }, orderBy: { connectedAt: 'asc' } });
  return links.map((link) => ({ slug: link.platform.slug, connectedAt: link.connectedAt }));
}

/** The store a message names, if it has the platform connected (404 otherwise, as for an unknown store). */
export async function connectedStore(db: Database, platform: { id: string; slug: string }, storeSlug: string, caches?: PlatformCaches): Promise<StoreContext> {
  const key = `${platform.id}:${storeSlug}`;
  const cached = caches?.connectedStores.get(key);
  if (cached !== undefined) return cached;
  const generation = caches?.connectedStores.generation() ?? 0;
  // One statement (the store, filtered on the link existing), where reading the link with its store takes two.
  const store = await db.store.findFirst({ where: { slug: storeSlug, platforms: { some: { platformId: platform.id } } } });
  if (!store) throw new AppError('not_found', `No store "${storeSlug}" connected to platform "${platform.slug}".`);
  const context = toStoreContext(store);
  caches?.connectedStores.set(key, context, generation);
  return context;
}
