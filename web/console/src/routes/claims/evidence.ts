// A claim's evidence in plain words: what the service holds about the parcel, the window, the photos,
// the shopper's earlier claims and the address. The claim page's Evidence section and the history of
// a rule's decision (what the rule read) both say it this way.
import { formatDateTime } from '../../format';
import type { ClaimEvidence } from './claims';

type AddressVerdict = NonNullable<ClaimEvidence['address_verdict']>;
type ParcelStatus = NonNullable<ClaimEvidence['delivery_status']>;

export const PARCEL_STATUS_WORDS: Record<ParcelStatus, string> = {
  Active: 'On its way (active)',
  Delivered: 'Delivered',
  Exception: 'Exception: the carrier reported a problem',
  Cancelled: 'Cancelled by the store',
};

export const ADDRESS_VERDICT_WORDS: Record<AddressVerdict, string> = {
  deliverable: 'Deliverable',
  corrected: 'Deliverable once corrected',
  unit_required: 'Needs a unit or apartment number',
  undeliverable: 'Undeliverable',
  unknown: 'Unknown to the verifier',
};

/** One line of evidence: its label, its value in words, and the instant it names, if any. */
export interface EvidenceLine {
  label: string;
  text: string;
  /** For a <time> element: the instant `text` writes. */
  dateTime?: string;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function daysWithoutScan(evidence: ClaimEvidence): string {
  const days = evidence.days_without_scan;
  if (days === null) return 'No parcel to count from';
  const count = days === 0 ? 'Less than a day' : plural(days, 'day');
  // Before any scan the service counts from the parcel's registration.
  return evidence.last_scan_at === null ? `${count}, since the parcel was registered` : count;
}

function windowWords(withinWindow: boolean | null): string {
  if (withinWindow === null) return 'Not judged: no parcel to judge by';
  return withinWindow ? "Filed inside the store's claim window" : "Filed outside the store's claim window";
}

export function evidenceLines(evidence: ClaimEvidence): EvidenceLine[] {
  const status = evidence.delivery_status;
  const noParcel = status === null;
  const instant = (label: string, iso: string | null, otherwise: string): EvidenceLine =>
    iso === null ? { label, text: otherwise } : { label, text: formatDateTime(iso), dateTime: iso };
  return [
    { label: 'Parcel status', text: status === null ? 'No parcel registered for this claim' : PARCEL_STATUS_WORDS[status] },
    instant('Last carrier scan', evidence.last_scan_at, noParcel ? 'No parcel' : 'No scan yet'),
    { label: 'Days without a scan', text: daysWithoutScan(evidence) },
    instant('Delivered on', evidence.delivered_at, 'Not delivered'),
    { label: 'Claim window', text: windowWords(evidence.within_window) },
    { label: 'Photos', text: evidence.photos === 0 ? 'None' : plural(evidence.photos, 'photo') },
    {
      label: "The shopper's earlier claims",
      text: evidence.prior_claims === 0 ? 'None at this store in the past year' : `${plural(evidence.prior_claims, 'other claim')} at this store in the past year`,
    },
    { label: 'Shipping address', text: evidence.address_verdict === null ? 'Not verified' : ADDRESS_VERDICT_WORDS[evidence.address_verdict] },
  ];
}
