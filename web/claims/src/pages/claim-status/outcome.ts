// A claim's outcome in the shopper's words: one sentence saying what the store decided and how it
// makes it good (the status page leads with it, and the tab's title carries it), the change that
// decided it, and the notes the shopper should read beside it.
import type { Claim } from '../../api';
import { formatDate, formatMoney } from '../../format';
import { STATUS_TEXT } from '../../words';

type Change = Claim['history'][number];
type Resolution = NonNullable<Claim['resolution']>;

/** How each resolution is named in a sentence about it. */
export const RESOLUTION_NAME: Record<Resolution['type'], string> = {
  refund: 'refund',
  reorder: 'replacement',
  store_credit: 'store credit',
};

function approvedWords(resolution: Resolution): string {
  switch (resolution.type) {
    case 'refund':
      return `Refund of ${formatMoney(resolution.amount)} approved`;
    case 'store_credit':
      return `Store credit of ${formatMoney(resolution.amount)} approved`;
    case 'reorder':
      // A replacement's worth is the store's cost, not the shopper's concern: no amount.
      return 'A replacement will be sent';
  }
}

/** Once paid, what was paid (it may be less than approved) and when, in the page's own date format. */
function paidWords(resolution: Resolution | null, paid: NonNullable<Claim['paid']>): string {
  const on = formatDate(paid.paid_on);
  switch (resolution?.type) {
    case 'refund':
      return `Refund of ${formatMoney(paid.amount)} paid on ${on}`;
    case 'store_credit':
      return `Store credit of ${formatMoney(paid.amount)} given on ${on}`;
    case 'reorder':
      return `A replacement was sent on ${on}`;
    case undefined:
      // Claims approved before resolutions existed have none: the payment still says what was paid.
      return `${formatMoney(paid.amount)} paid on ${on}`;
  }
}

/** The outcome in one sentence, e.g. "Refund of $24.99 approved". */
export function outcomeHeadline(claim: Claim): string {
  switch (claim.status) {
    case 'approved':
      return claim.resolution === null ? 'Your claim was approved' : approvedWords(claim.resolution);
    case 'paid':
      return claim.paid === null ? STATUS_TEXT.paid : paidWords(claim.resolution, claim.paid);
    // Closing a paid claim only files it away: what was paid is still the outcome.
    case 'closed':
      return claim.paid === null ? 'Your claim was closed' : paidWords(claim.resolution, claim.paid);
    case 'denied':
      return 'Your claim was declined';
    case 'open':
    case 'in_review':
      return STATUS_TEXT[claim.status];
  }
}

export interface Decision {
  change: Change;
  /** Its place in the history: notes from before it belong to an earlier stage. */
  index: number;
}

/**
 * The change that decided the outcome: how a claim is made good is decided on approval, so a paid
 * claim (closed or not) is decided by its approval, whoever recorded the payment. None while open.
 */
export function decidingChange(claim: Claim): Decision | undefined {
  if (claim.status === 'open') return undefined;
  const status = claim.status === 'paid' || (claim.status === 'closed' && claim.paid !== null) ? 'approved' : claim.status;
  for (let index = claim.history.length - 1; index >= 0; index -= 1) {
    const change = claim.history[index];
    if (change !== undefined && change.status === status) return { change, index };
  }
  return undefined;
}

/** Who decided and when, in a sentence; the store's rules are named, a person never is. */
export function decidedBy(decision: Decision): string | undefined {
  const on = formatDate(decision.change.changed_on);
  if (decision.change.status === 'in_review') {
    return decision.change.automatic ? `The store's claim rules passed it to a person to review on ${on}.` : undefined;
  }
  return decision.change.automatic ? `Decided automatically by the store's claim rules on ${on}.` : `Decided by the store on ${on}.`;
}

export interface OutcomeNote {
  text: string;
  /** Whose words, for its caption. */
  from: string;
  /** When it was written, if it came with a change. */
  on?: string;
}

/**
 * The notes to read beside the outcome: the latest one given with or after the decision (a rule's
 * note to the shopper when a rule decided), and the note on the resolution when it says more.
 */
export function outcomeNotes(claim: Claim, decision: Decision | undefined): OutcomeNote[] {
  if (decision === undefined) return [];
  const notes: OutcomeNote[] = [];
  const latest = claim.history
    .slice(decision.index)
    .reverse()
    .find((change) => change.note !== null);
  if (latest !== undefined && latest.note !== null) {
    notes.push({ text: latest.note, from: latest.automatic ? "The store's claim rules" : 'The store', on: latest.changed_on });
  }
  const resolutionNote = claim.resolution?.note ?? null;
  if (claim.resolution !== null && resolutionNote !== null && resolutionNote !== latest?.note) {
    notes.push({ text: resolutionNote, from: `The store, about your ${RESOLUTION_NAME[claim.resolution.type]}` });
  }
  return notes;
}
