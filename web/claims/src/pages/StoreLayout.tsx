// The frame of every page of a store: its logo, name and accent colour on top, the page below. The
// store is read first; a slug the server does not know is "No such store", nothing else. Each page's
// h1 takes the focus when it opens (components/PageHeading.tsx).
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { errorMessage, isMissing, storeQuery } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { PageHeading } from '../components/PageHeading';
import { applyAccent } from '../theme';

const route = getRouteApi('/$storeSlug');

export function StoreLayout() {
  const { storeSlug } = route.useParams();
  const store = useQuery(storeQuery(storeSlug));
  const missing = store.isError && store.data === undefined && isMissing(store.error);
  const accent = store.data?.accent_color;

  useEffect(() => applyAccent(accent), [accent]);

  if (missing) {
    return (
      <main className="page narrow" id="main">
        <title>No such store</title>
        <PageHeading>No such store</PageHeading>
        <p>There is no store at this address. Check the link in your order confirmation email, or contact the store where you ordered.</p>
      </main>
    );
  }

  const name = store.data?.name;
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="store-header">
        <div className="store-header-inner">
          {store.data?.logo_url ? <img className="store-logo" src={store.data.logo_url} alt={store.data.name} /> : null}
          <p className="store-name">{name ?? '\u00a0'}</p>
        </div>
      </header>
      <main className="page" id="main" tabIndex={-1}>
        {store.isPending ? (
          <>
            <title>Loading…</title>
            <h1>Loading…</h1>
            <p className="muted" aria-live="polite">
              Loading the store…
            </p>
          </>
        ) : (
          <>
            {/* The store could not be read (not a 404): the pages still work, the header is plain. */}
            {store.isError && store.data === undefined ? <ErrorMessage message={`The store could not be loaded: ${errorMessage(store.error)}`} /> : null}
            <Outlet />
          </>
        )}
      </main>
    </div>
  );
}
