// What the settings page reads: the store's settings (every role), and its users (owners only: the
// server refuses anyone else, so the page never asks for them).
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ConsoleSettings, ConsoleUser } from '../../../../../contract/console/index.js';
import { api, bodyOf } from '../../api';

export type Settings = z.infer<typeof ConsoleSettings>;
export type User = z.infer<typeof ConsoleUser>;

export const settingsQuery = queryOptions({
  queryKey: ['settings'] as const,
  queryFn: async () => bodyOf(await api.settings.get(), 200),
});

export const usersQuery = queryOptions({
  queryKey: ['settings', 'users'] as const,
  queryFn: async () => bodyOf(await api.settings.users(), 200).data,
});
