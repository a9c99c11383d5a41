// The developers pages' lists in the URL, so a reload or Back shows the same page: the request log's
// trail of cursors on /developers, and the deliveries' trail (each page's last delivery) on an
// endpoint's page. Anything malformed is left out: the first page.
import { cursorTrailOf } from '../../components/CursorPager';

export interface DevelopersSearch {
  /** The request log's cursors that led to the page shown. */
  log?: string[];
}

export interface EndpointSearch {
  /** The deliveries' cursors (the last delivery of each page before) that led to the page shown. */
  cursors?: string[];
}

// Every key always, undefined for the default: the router lays this over the raw search.
export const validateDevelopersSearch = (search: Record<string, unknown>): DevelopersSearch => ({ log: cursorTrailOf(search.log) });

export const validateEndpointSearch = (search: Record<string, unknown>): EndpointSearch => ({ cursors: cursorTrailOf(search.cursors) });
