// Keyset pagination over (created time, id), the console's lists' order: a cursor is the last row of
// a page, opaque to the caller. A row created between two pages never shifts a page, as an offset
// would.
import { AppError } from './errors.js';

export interface PageCursor {
  createdOn: Date;
  id: string;
}

export const encodePageCursor = (row: PageCursor): string => Buffer.from(`${row.createdOn.toISOString()}|${row.id}`).toString('base64url');

/** The cursor's row; 400 naming `cursor` when the text is not one a page gave. */
export function decodePageCursor(cursor: string): PageCursor {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdOn = new Date(at ?? '');
  if (id === undefined || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdOn.getTime())) {
    throw new AppError('invalid_request', 'The cursor is not one this list gave.', [{ field: 'cursor', message: 'must be a next_cursor of an earlier page' }]);
  }
  return { createdOn, id };
}

/** Prisma's condition for the rows after `cursor` in the given direction of (createdOn, id). */
export function afterCursor(cursor: PageCursor | null, direction: 'asc' | 'desc') {
  if (cursor === null) return {};
  const beyond = direction === 'asc' ? { gt: cursor.createdOn } : { lt: cursor.createdOn };
  const idBeyond = direction === 'asc' ? { gt: cursor.id } : { lt: cursor.id };
  return { OR: [{ createdOn: beyond }, { createdOn: cursor.createdOn, id: idBeyond }] };
}

/** One page of `limit` from rows read with `limit + 1`, and the cursor of the next page, if any. */
export function pageOf<T extends PageCursor>(rows: T[], limit: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? encodePageCursor(last) : null };
}
