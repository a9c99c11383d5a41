// The claim page form's values as the admin types them, and how they become the PATCH: contacts
// left empty are none, and the windows stay text until they are sent (a number input holds "" for
// what is no number, which the page must catch itself: JSON cannot carry it to the server).
import type { z } from 'zod';
import type { ConsoleSettingsPatch } from '../../../../../contract/console/index.js';
import type { Settings } from './queries';

export type ClaimPage = Settings['claim_page'];
export type ClaimPageBody = NonNullable<z.input<typeof ConsoleSettingsPatch>['claim_page']>;

/** The form's values as typed: the windows stay text until they are sent. */
export interface Draft {
  accent: string | null;
  email: string;
  url: string;
  lostDays: string;
  afterDeliveryDays: string;
}

export const draftOf = (claimPage: ClaimPage): Draft => ({
  accent: claimPage.accent_color,
  email: claimPage.support_email ?? '',
  url: claimPage.support_url ?? '',
  lostDays: String(claimPage.lost_after_days),
  afterDeliveryDays: String(claimPage.after_delivery_days),
});

/** An empty contact is none at all. */
export const contact = (value: string) => (value.trim() === '' ? null : value.trim());

/** A number input holds "" when what was typed is no number; JSON has no way to send that. */
export const dayCount = (value: string): number | undefined => (value.trim() === '' || !Number.isFinite(Number(value)) ? undefined : Number(value));

export type LocalErrors = Partial<Record<'lost_after_days' | 'after_delivery_days', string>>;
