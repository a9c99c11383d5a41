// Reading a store's webhook endpoints.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { EndpointRecord, endpointNotFound, endpointSelect } from './endpoint-record.js';

export async function listEndpoints(db: Database, scope: Scope): Promise<EndpointRecord[]> {
  return db.webhookEndpoint.findMany({ where: { storeId: scope.store.id }, select: endpointSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function getEndpoint(db: Database, scope: Scope, id: string): Promise<EndpointRecord> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, storeId: scope.store.id }, select: endpointSelect });
  if (!row) throw endpointNotFound(id);
  return row;
}
