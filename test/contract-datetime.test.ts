// The contract's date-time (DateTime in contract/common.ts) checks a string it recognises with a
// pattern built once, and hands everything else to zod. Both ways must judge alike: whatever zod's
// own date-time check with an offset accepts, in the years 0001 to 9999, and nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DateTime, DateTimeString } from '../contract/common.js';

const zodAlone = z.string().datetime({ offset: true });
const storable = (value: string) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
};

/** Date-time-like strings: the parts zod's pattern looks at, each sometimes wrong. */
const dateTimeLike = fc
  .tuple(
    fc.constantFrom('0000', '0001', '1999', '2026', '9999', '12345', '99'),
    fc.constantFrom('01', '02', '12', '13', '00', '1'),
    fc.constantFrom('01', '28', '29', '31', '32', '00'),
    fc.constantFrom('T', 't', ' '),
    fc.constantFrom('00:00:00', '23:59:59', '24:00:00', '10:00', '10:00:60', '1:00:00'),
    fc.constantFrom('', '.5', '.123', '.123456789', '.'),
    fc.constantFrom('Z', 'z', '', '+01:00', '-01:00', '+0100', '+14:00', '+1', '-23:59'),
  )
  .map((parts) => `${parts[0]}-${parts[1]}-${parts[2]}${parts[3]}${parts[4]}${parts[5]}${parts[6]}`);

describe('DateTime', () => {
  it('accepts exactly what zod accepts in the storable years, with the same value', () => {
    fc.assert(
      fc.property(dateTimeLike, (value) => {
        const ours = DateTime.safeParse(value);
        expect(ours.success).toBe(zodAlone.safeParse(value).success && storable(value));
        if (ours.success) expect(ours.data).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('words each refusal as before', () => {
    const noZone = DateTime.safeParse('2026-11-22T10:00:00');
    expect(noZone.success).toBe(false);
    expect(noZone.error?.issues.map((issue) => issue.message)).toEqual(['must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T10:00:00Z']);
    const yearZero = DateTime.safeParse('0000-06-01T00:00:00Z');
    expect(yearZero.error?.issues.map((issue) => issue.message)).toEqual(['must fall between the years 0001 and 9999 in UTC']);
    // Past 9999 only once the offset is applied: the year range is judged in UTC.
    expect(DateTime.safeParse('9999-12-31T23:59:59-01:00').success).toBe(false);
    expect(DateTime.safeParse('9999-12-31T23:59:59+01:00').success).toBe(true);
    expect(DateTime.safeParse(20261122).error?.issues[0]?.code).toBe('invalid_type');
  });

  it('stays itself, year range included, through the copies zod makes', () => {
    const described = DateTime.describe('When it happened.');
    // A copy made as a plain zod string would keep the format but lose the year range.
    expect(described).toBeInstanceOf(DateTimeString);
    expect(described.safeParse('2026-11-22T10:00:00Z').success).toBe(true);
    expect(described.safeParse('2026-11-22 10:00:00Z').success).toBe(false);
    expect(described.safeParse('0000-06-01T00:00:00Z').success).toBe(false);
    expect(DateTime.optional().safeParse('0000-06-01T00:00:00Z').success).toBe(false);
    expect(DateTime.optional().safeParse(undefined).success).toBe(true);
  });
});
