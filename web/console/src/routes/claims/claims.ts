// The claims area's shared words and reads: each status and reason as a person reads it, what a
// decision to each status does, and the queries of the queue and of one claim.
import { queryOptions, type UseQueryResult } from '@tanstack/react-query';
import type { z } from 'zod';
import { CLAIM_STATUSES, type ClaimResponse } from '../../../../../contract/claims.js';
import type { ConsoleClaimDetail, ConsoleOrderDetail } from '../../../../../contract/console/index.js';
import { api, bodyOf, pathParam } from '../../api';

export type Claim = z.infer<typeof ClaimResponse>;
export type ClaimDetail = z.infer<typeof ConsoleClaimDetail>;
/** The order a claim is on, read with the order page's own query (routes/orders/queries.ts). */
export type ClaimOrder = UseQueryResult<z.infer<typeof ConsoleOrderDetail>>;
export type ClaimStatus = Claim['status'];
export type ClaimReason = Claim['reason'];
export type ClaimChannel = Claim['channel'];
export type ClaimPhoto = Claim['photos'][number];
export type ClaimEvidence = Claim['evidence'];
export type ResolutionType = NonNullable<Claim['resolution']>['type'];
/** A history entry as the claim itself carries it: for a rule's decision, the rule and what it read. */
export type ClaimHistoryEntry = Claim['history'][number];

export const STATUS_LABEL: Record<ClaimStatus, string> = {
  open: 'Open',
  in_review: 'In review',
  approved: 'Approved',
  denied: 'Denied',
  paid: 'Paid',
  closed: 'Closed',
};

export const REASON_LABEL: Record<ClaimReason, string> = {
  lost: 'Lost',
  damaged: 'Damaged',
  stolen: 'Stolen',
  missing_items: 'Missing items',
  wrong_address: 'Wrong address',
  other: 'Other',
};

/** How an approved claim is made good. */
export const RESOLUTION_LABEL: Record<ResolutionType, string> = {
  refund: 'Refund',
  reorder: 'Reorder',
  store_credit: 'Store credit',
};

/** Where a claim was filed, as the summary's "Filed on" says it. */
export const CHANNEL_LABEL: Record<ClaimChannel, string> = {
  shopper_page: 'The claim page',
  api: 'The API',
  cli: "The operator's CLI",
};

/**
 * Where the console shows a claim's photo: its own route, under the session cookie (the claim's
 * `url` is the merchant API's, which needs the store's key). Both ids are encoded.
 */
export const claimPhotoPath = (claimId: string, photoId: string) => `/console/api/claims/${pathParam(claimId)}/photos/${pathParam(photoId)}`;

/**
 * Who made a change, after "by": the service's labels are written to stand alone ("The shopper, on
 * the claim page"), so a leading article is lowered ("by the shopper, on the claim page"). Emails,
 * keys, platforms and operators never start with "The ".
 */
export const byLabel = (label: string) => label.replace(/^The /, 'the ');

/** A status from the URL, or undefined (every claim) for anything else. */
export function claimStatusOf(value: unknown): ClaimStatus | undefined {
  return CLAIM_STATUSES.find((status) => status === value);
}

/**
 * A decision that moves a claim to a status, as server/domain/claims/claims.ts defines them: open,
 * in_review and approved keep the claim open (it still blocks cancelling the order); denied and
 * closed are final; paid can only be closed. The service records decisions; it moves no money.
 */
export interface Decision {
  /** The button on the claim page. */
  verb: string;
  /** The confirmation's question. */
  question: string;
  /** What it does, in the confirmation, after "From <status> to <status>." (so it does not say the move again). */
  consequence: string;
  /** The confirmation's button. */
  confirm: string;
  /** Said once it is done. */
  done: string;
  /** A final or refusing decision is styled as a destructive one. */
  tone: 'primary' | 'secondary' | 'danger';
}

export const DECISION: Record<ClaimStatus, Decision> = {
  // No transition leads back to open today; the words are here should the domain rule allow it.
  open: {
    verb: 'Reopen',
    question: 'Reopen this claim?',
    consequence: 'It blocks cancelling the order again.',
    confirm: 'Reopen claim',
    done: 'The claim is open again.',
    tone: 'secondary',
  },
  in_review: {
    verb: 'Start review',
    question: 'Start reviewing this claim?',
    consequence: 'It stays open: the order, and the shipment it names, still cannot be cancelled.',
    confirm: 'Start review',
    done: 'The claim is now in review.',
    tone: 'secondary',
  },
  approved: {
    verb: 'Approve',
    question: 'Approve this claim?',
    consequence: 'It stays open until it is marked as paid or closed. Approving sends no money.',
    confirm: 'Approve claim',
    done: 'The claim is approved.',
    tone: 'primary',
  },
  denied: {
    verb: 'Deny',
    question: 'Deny this claim?',
    consequence: 'This is final: a denied claim cannot move again.',
    confirm: 'Deny claim',
    done: 'The claim is denied.',
    tone: 'danger',
  },
  paid: {
    verb: 'Mark as paid',
    question: 'Mark this claim as paid?',
    consequence: 'This records that the shopper has been paid; the service itself sends no money. Afterwards the claim can only be closed.',
    confirm: 'Mark as paid',
    done: 'The claim is marked as paid.',
    tone: 'primary',
  },
  closed: {
    verb: 'Close claim',
    question: 'Close this claim?',
    consequence: 'This is final: a closed claim cannot move again.',
    confirm: 'Close claim',
    done: 'The claim is closed.',
    tone: 'secondary',
  },
};

/** Every claims query starts with this key: a decision invalidates them all at once. */
export const CLAIMS_KEY = ['claims'] as const;

/** What the queue asks for: a status (or all), a page, and a reference typed into its search. */
export interface ClaimsListFilter {
  status?: ClaimStatus | undefined;
  cursor?: string | undefined;
  reference?: string | undefined;
}

export const claimsListQuery = ({ status, cursor, reference }: ClaimsListFilter) =>
  queryOptions({
    queryKey: [...CLAIMS_KEY, 'list', status ?? 'all', cursor ?? null, reference ?? null] as const,
    queryFn: async () =>
      bodyOf(
        await api.claims.list({
          query: { ...(status === undefined ? {} : { status }), ...(cursor === undefined ? {} : { cursor }), ...(reference === undefined ? {} : { reference }) },
        }),
        200,
      ),
  });

/** The longest reference the list takes (the contract's limit); a reference is CLM- and six characters. */
export const REFERENCE_MAX = 20;

/** A reference from the URL: trimmed, or undefined when empty or longer than the list takes. */
export function referenceOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' || trimmed.length > REFERENCE_MAX ? undefined : trimmed;
}

export const claimQuery = (id: string) =>
  queryOptions({
    queryKey: [...CLAIMS_KEY, 'detail', id] as const,
    // The id comes from the URL: encoded, so no character of it can reach another API path.
    queryFn: async (): Promise<ClaimDetail> => bodyOf(await api.claims.get({ params: { id: pathParam(id) } }), 200),
  });
