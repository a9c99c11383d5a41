// Identifiers the service issues. Checked before any query: PostgreSQL rejects a malformed uuid
// with an error, and a lookup of one must simply find nothing.
import { AppError } from './errors.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * Ids must be unique within a list of one request: a repeat is 422 (README, Errors), naming every
 * item that repeats an earlier one's id.
 */
export function assertUniqueIds<Item>(items: readonly Item[] | undefined, idOf: (item: Item) => string, listField: string, message: string): void {
  const seen = new Set<string>();
  const errors: Array<{ field: string; message: string }> = [];
  (items ?? []).forEach((item, index) => {
    const id = idOf(item);
    if (seen.has(id)) errors.push({ field: `${listField}[${index}].source_id`, message: `repeats source_id "${id}" of an earlier item` });
    seen.add(id);
  });
  if (errors.length > 0) throw new AppError('unprocessable', message, errors);
}
