// Creates the Prisma client over node-postgres (Prisma 7 driver adapter; no native engine needed).
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/client.js';

export type Database = PrismaClient;
export type Transaction = Prisma.TransactionClient;
export { Prisma };

export interface DatabaseOptions {
  /** Connections this process may hold. Several instances share one PostgreSQL, so keep it modest. */
  poolSize?: number;
}

export function createDatabase(databaseUrl: string, options: DatabaseOptions = {}): Database {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  // Minimal messages: the default format embeds source excerpts and paths in error text.
  return new PrismaClient({ adapter, errorFormat: 'minimal' });
}

/** True when a write lost a race against a unique constraint (the database's duplicate guard). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
