// What the overview reads: one answer per month (its statement, orders and claims), which also
// carries the 90 days of daily net premium up to today.
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ConsoleOverview } from '../../../../../contract/console/index.js';
import { api, bodyOf } from '../../api';

export type Overview = z.infer<typeof ConsoleOverview>;
export type DailyNet = Overview['daily_net_cents'][number];

export const overviewQuery = (month: string) =>
  queryOptions({
    queryKey: ['overview', month] as const,
    queryFn: async () => bodyOf(await api.overview.get({ query: { month } }), 200),
  });
