// Identifiers the service issues. Checked before any query: PostgreSQL rejects a malformed uuid
// with an error, and a lookup of one must simply find nothing.
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
