import { initServer } from '@ts-rest/express';
import { consoleApiKeysContract } from '../../../contract/console/index.js';
import { issueApiKey, listApiKeys, revokeApiKey } from '../../domain/access/index.js';
import { AppError } from '../../domain/kernel/index.js';
import type { AppDeps } from '../../deps.js';
import { consoleOf } from '../../http/console-session.js';

const s = initServer();

type StoredKey = Awaited<ReturnType<typeof listApiKeys>>[number];

const toConsoleKey = (key: Pick<StoredKey, 'id' | 'name' | 'mode' | 'last4' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>) => ({
  id: key.id,
  name: key.name,
  mode: key.mode,
  last4: key.last4,
  created_at: key.createdAt.toISOString(),
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

export const consoleApiKeysRouter = ({ db, clock, apiKeys }: AppDeps) =>
  s.router(consoleApiKeysContract, {
    list: async ({ req }) => {
      const keys = await listApiKeys(db, consoleOf(req).scope);
      return { status: 200, body: { data: keys.filter((key) => key.scope === 'store').map(toConsoleKey) } };
    },
    create: async ({ body, req }) => {
      const { scope } = consoleOf(req);
      const issued = await issueApiKey(db, scope, { mode: body.mode, scope: 'store', name: body.name });
      const stored = await db.apiKey.findUniqueOrThrow({ where: { id: issued.id } });
      return { status: 201, body: { ...toConsoleKey(stored), secret: issued.key } };
    },
    revoke: async ({ params, req }) => {
      const { scope } = consoleOf(req);
      await revokeApiKey(db, scope, params.id, clock.now());
      // Every instance empties its cache of keys when it hears the change; this one does not wait
      // to hear it, so the key is refused here from the moment the answer leaves.
      apiKeys.callers.clear();
      const stored = await db.apiKey.findFirst({ where: { id: params.id, storeId: scope.store.id } });
      if (stored === null) throw new AppError('not_found', `No API key with id "${params.id}".`);
      return { status: 200, body: toConsoleKey(stored) };
    },
  });
