// Who did something, as a store's own people read it (the console's claim history): a console user
// by their email, a key by its mode, its name if it has one, and its last four characters, a
// platform by its slug, the operator and the service's jobs by name. Only actors of the store
// itself are named; any other id stays an id.
import type { Database } from '../../db/client.js';
import type { Actor } from './actor.js';

export interface RecordedActor {
  kind: Actor['kind'];
  id: string;
}

const actorLabelKey = (actor: RecordedActor) => `${actor.kind}:${actor.id}`;

/** `Live key "Production server" ••••9gXL` for a named key; `Live API key ••••9gXL` for one without a name. */
function apiKeyLabel(apiKey: { mode: 'live' | 'test'; name: string | null; last4: string }): string {
  const mode = apiKey.mode === 'live' ? 'Live' : 'Test';
  return apiKey.name === null ? `${mode} API key ••••${apiKey.last4}` : `${mode} key "${apiKey.name}" ••••${apiKey.last4}`;
}

/** A label per recorded actor, keyed by "kind:id", in two queries at most. */
async function actorLabels(db: Database, storeId: string, actors: readonly RecordedActor[]): Promise<Map<string, string>> {
  const ids = (kind: Actor['kind']) => [...new Set(actors.filter((actor) => actor.kind === kind).map((actor) => actor.id))];
  const [users, keys] = await Promise.all([
    ids('console_user').length === 0 ? [] : db.merchantUser.findMany({ where: { storeId, id: { in: ids('console_user') } }, select: { id: true, email: true } }),
    ids('api_key').length === 0 ? [] : db.apiKey.findMany({ where: { storeId, id: { in: ids('api_key') } }, select: { id: true, mode: true, name: true, last4: true } }),
  ]);
  const userEmail = new Map(users.map((user) => [user.id, user.email]));
  const keyLabel = new Map(keys.map((apiKey) => [apiKey.id, apiKeyLabel(apiKey)]));
  const labels = new Map<string, string>();
  for (const actor of actors) {
    switch (actor.kind) {
      case 'console_user':
        labels.set(actorLabelKey(actor), userEmail.get(actor.id) ?? 'A console user');
        break;
      case 'api_key':
        labels.set(actorLabelKey(actor), keyLabel.get(actor.id) ?? 'An API key');
        break;
      case 'platform':
        labels.set(actorLabelKey(actor), `Platform ${actor.id}`);
        break;
      case 'operator':
        labels.set(actorLabelKey(actor), `Operator ${actor.id}`);
        break;
      case 'system':
        labels.set(actorLabelKey(actor), `The service (${actor.id})`);
        break;
      case 'shopper':
        labels.set(actorLabelKey(actor), 'The shopper, on the claim page');
        break;
    }
  }
  return labels;
}

/** Rows that recorded who made them (null for rows older than the record). */
interface ActorColumns {
  actorKind: Actor['kind'] | null;
  actorId: string | null;
}

/** Each row with who made it, labelled: `by` is null where the row recorded no actor. */
export async function withActorLabels<T extends ActorColumns>(db: Database, storeId: string, rows: readonly T[]): Promise<Array<T & { by: (RecordedActor & { label: string }) | null }>> {
  const recorded = rows.flatMap((row) => (row.actorKind === null || row.actorId === null ? [] : [{ kind: row.actorKind, id: row.actorId }]));
  const labels = await actorLabels(db, storeId, recorded);
  return rows.map((row) => {
    if (row.actorKind === null || row.actorId === null) return { ...row, by: null };
    const actor = { kind: row.actorKind, id: row.actorId };
    return { ...row, by: { ...actor, label: labels.get(actorLabelKey(actor)) ?? actor.id } };
  });
}
