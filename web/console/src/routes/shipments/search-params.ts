// The shipments list in the URL, so a reload or Back shows the same page: the filters (a delivery
// status, a carrier, days without a scan, an unknown carrier) and the trail of cursors that led to
// the page shown. Anything malformed is left out: that filter is off.
import { DELIVERY_STATUSES } from '../../../../../contract/shipments.js';
import { MAX_SILENT_DAYS } from '../../../../../contract/console/index.js';
import { cursorTrailOf } from '../../components/CursorPager';
import type { DeliveryStatus } from './labels';

export interface ShipmentsSearch {
  status?: DeliveryStatus;
  carrier?: string;
  silent_days?: number;
  carrier_unknown?: boolean;
  cursors?: string[];
}

const isStatus = (value: unknown): value is DeliveryStatus => typeof value === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(value);

export function validateShipmentsSearch(search: Record<string, unknown>): ShipmentsSearch {
  // The router reads "?silent_days=7" as the number 7, and "?carrier_unknown=true" as true.
  const days = typeof search.silent_days === 'string' ? Number(search.silent_days) : search.silent_days;
  const carrier = typeof search.carrier === 'string' && /^[a-z0-9_]{1,40}$/.test(search.carrier) ? search.carrier : undefined;
  // Every key always, undefined for the default: the router lays this over the raw search.
  return {
    status: isStatus(search.status) ? search.status : undefined,
    carrier,
    silent_days: typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= MAX_SILENT_DAYS ? days : undefined,
    carrier_unknown: search.carrier_unknown === true || search.carrier_unknown === 'true' ? true : undefined,
    cursors: cursorTrailOf(search.cursors),
  };
}

/** The filters of a search, without its page: a link to another filter starts at its first page. */
export function filtersOf(search: ShipmentsSearch): Omit<ShipmentsSearch, 'cursors'> {
  return {
    ...(search.status === undefined ? {} : { status: search.status }),
    ...(search.carrier === undefined ? {} : { carrier: search.carrier }),
    ...(search.silent_days === undefined ? {} : { silent_days: search.silent_days }),
    ...(search.carrier_unknown === undefined ? {} : { carrier_unknown: search.carrier_unknown }),
  };
}
