// What a decision sends (the contract's ClaimStatusRequest): approving carries the resolution,
// marking paid the payout, both as typed into the decision's dialog. Only what cannot be sent at all
// is judged here (an amount that is no number, no date); the server judges the rest (a third
// decimal, an amount over the claim, a date in the future) and names the field, shown beside it.
import type { z } from 'zod';
import type { ClaimStatusRequest } from '../../../../../contract/claims.js';
import { ApiError, sentence } from '../../api';
import { amountInputOf, majorOfInput } from '../../format';
import type { Claim, ClaimStatus, ResolutionType } from './claims';

export type DecisionBody = z.input<typeof ClaimStatusRequest>;

export interface ResolutionDraft {
  type: ResolutionType;
  amount: string;
  note: string;
}

export interface PayoutDraft {
  amount: string;
  /** A calendar day in the user's time zone, YYYY-MM-DD, as a date input holds it. */
  paidOn: string;
  reference: string;
}

/** The fields of the dialog, by the server's names for them. */
export type DecisionField = 'resolution' | 'resolution.type' | 'resolution.amount' | 'resolution.note' | 'payout' | 'payout.amount' | 'payout.paid_on' | 'payout.reference';
export const DECISION_FIELDS: readonly DecisionField[] = ['resolution', 'resolution.type', 'resolution.amount', 'resolution.note', 'payout', 'payout.amount', 'payout.paid_on', 'payout.reference'];
export type FieldErrors = Partial<Record<DecisionField, string>>;

/** An approval makes good what was claimed unless the person says otherwise: a refund of amount_claimed. */
export const resolutionDraftOf = (claim: Claim): ResolutionDraft => ({ type: 'refund', amount: amountInputOf(claim.amount_claimed), note: '' });

/** A payout pays the resolution in full, today, unless the person says otherwise. */
export const payoutDraftOf = (claim: Claim, today: string): PayoutDraft => ({
  amount: amountInputOf(claim.resolution?.amount ?? claim.amount_claimed),
  paidOn: today,
  reference: '',
});

/**
 * The payout's date as the instant the API takes. Today is left out, so the server records the
 * moment it is told (a midnight would be the wrong day west of Greenwich); another day is its noon
 * in the user's time zone, the same calendar day wherever the user reads it back.
 */
function paidOnInstant(day: string, today: string): string | undefined | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match === null) return null;
  if (day === today) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12).toISOString();
}

const AMOUNT_EXAMPLE = 'Must be an amount in dollars, such as 24.99.';

interface DecisionInput {
  status: ClaimStatus;
  note: string | undefined;
  resolution: ResolutionDraft;
  payout: PayoutDraft;
  today: string;
}

/** The body to send, or the fields that cannot be sent as they are. */
export function decisionBody({ status, note, resolution, payout, today }: DecisionInput): { body: DecisionBody } | { errors: FieldErrors } {
  const base = { status, ...(note === undefined ? {} : { note }) };
  if (status === 'approved') {
    const amount = resolution.amount.trim() === '' ? undefined : majorOfInput(resolution.amount);
    // An empty amount is left out: the server then takes amount_claimed.
    if (resolution.amount.trim() !== '' && amount === undefined) return { errors: { 'resolution.amount': AMOUNT_EXAMPLE } };
    const resolutionNote = resolution.note.trim();
    return {
      body: { ...base, resolution: { type: resolution.type, ...(amount === undefined ? {} : { amount }), ...(resolutionNote === '' ? {} : { note: resolutionNote }) } },
    };
  }
  if (status === 'paid') {
    const amount = majorOfInput(payout.amount);
    const paidOn = paidOnInstant(payout.paidOn, today);
    const errors: FieldErrors = {
      ...(amount === undefined ? { 'payout.amount': AMOUNT_EXAMPLE } : {}),
      ...(paidOn === null ? { 'payout.paid_on': 'Must be a date.' } : {}),
    };
    if (amount === undefined || paidOn === null) return { errors };
    const reference = payout.reference.trim();
    return { body: { ...base, payout: { amount, ...(paidOn === undefined ? {} : { paid_on: paidOn }), ...(reference === '' ? {} : { reference }) } } };
  }
  return { body: base };
}

/** The server's complaints about the dialog's fields, as sentences; the rest is said above them. */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: FieldErrors = {};
  for (const item of error.fieldErrors) {
    const field = DECISION_FIELDS.find((known) => known === item.field);
    if (field !== undefined && errors[field] === undefined) errors[field] = sentence(item.message);
  }
  return errors;
}
