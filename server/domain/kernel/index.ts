// The kernel: what every context shares and none owns: the clock, errors, ids, page cursors, and the
// day partitions of the tables retention trims.
export { appliedAt, DAY_MS, type Clock, clockAt, systemClock } from './clock.js';
export { AppError } from './errors.js';
export { assertUniqueIds, isUuid } from './ids.js';
export { afterCursor, decodePageCursor, encodePageCursor, type PageCursor, pageOf } from './page-cursor.js';
export { createDayPartitionsAhead, DAYS_CREATED_AHEAD, dropDayPartitionsBefore } from './day-partitions.js';
