// The claim page's entry: React Query holds what the server said, the router decides what to show.
// A 401 from any request means the shopper's session is missing or has ended: back to the store's
// lookup page, which says so.
import { mountApp, newQueryClient } from '../../shared/app-root';
import { ApiError, forgetSession, isSessionEnded, leaveNotice, listenForErrors, SESSION_ENDED } from './api';
import { createClaimsRouter } from './router';
import './styles.css';

/** The store of the page showing now (every page but "not found" is under /claims/{store_slug}). */
function currentStoreSlug(): string | undefined {
  for (const match of router.state.matches) {
    const params = match.params as { storeSlug?: unknown };
    if (typeof params.storeSlug === 'string') return params.storeSlug;
  }
  return undefined;
}

function onRequestError(error: unknown): void {
  if (!isSessionEnded(error)) return;
  const storeSlug = currentStoreSlug();
  if (storeSlug === undefined) return;
  forgetSession(queryClient);
  leaveNotice(error instanceof ApiError && error.code === 'unauthorized' ? sessionEndedText(error.message) : SESSION_ENDED);
  void router.navigate({ to: '/$storeSlug', params: { storeSlug }, replace: true });
}

/** The server's own words when it gave some, else the page's. */
function sessionEndedText(message: string): string {
  return message.trim() === '' ? SESSION_ENDED : message;
}

const queryClient = newQueryClient(onRequestError);
listenForErrors(onRequestError);

const router = createClaimsRouter(queryClient);

mountApp(queryClient, router);
