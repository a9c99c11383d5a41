// The frame of every logged-in page: the store, the user, log out, the navigation, and the page.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, Outlet, useMatchRoute, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { api, ApiError, bodyOf, errorMessage, forgetSession, sessionQuery } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { NAV_ITEMS, navItemsFor, PRODUCT_NAME } from '../navigation';

export function Layout() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const mainRef = useRef<HTMLElement>(null);
  const matchRoute = useMatchRoute();
  /**
   * An item is current on its pages and those under it (Claims on a claim), unless another item
   * names the page (Claim rules, under /claims): then only that one is.
   */
  const exactFor = (to: string) => NAV_ITEMS.some((other) => other.to.startsWith(`${to}/`) && matchRoute({ to: other.to, fuzzy: true }) !== false);

  // A new page: move focus to its heading, so a screen reader announces it and Tab starts there.
  useEffect(() => {
    const heading = mainRef.current?.querySelector('h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [pathname]);

  const logout = useMutation({
    mutationFn: async () => {
      const response = await api.session.logout();
      // 401: the session had ended already, which is what logging out wants.
      if (response.status !== 401) bodyOf(response, 200);
    },
    onSuccess: async () => {
      forgetSession(queryClient);
      await navigate({ to: '/login', replace: true });
    },
  });

  if (session === null) return null;
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="product-name">{PRODUCT_NAME}</span>
          <span className="store-name">{session.store.name}</span>
        </div>
        <div className="account">
          <span className="account-user">
            <span className="account-email">{session.user.email}</span>
            <span className="role-badge">{session.user.role}</span>
          </span>
          <button type="button" className="button secondary" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Log out
          </button>
        </div>
      </header>
      {logout.isError && !(logout.error instanceof ApiError && logout.error.status === 401) ? (
        <div className="banner">
          <ErrorMessage message={`Logging out failed: ${errorMessage(logout.error)}`} />
        </div>
      ) : null}
      <div className="shell">
        <nav className="sidebar" aria-label="Console">
          <ul>
            {navItemsFor(session.user.role).map((item) => (
              <li key={item.to}>
                <Link to={item.to} className="nav-link" activeProps={{ className: 'active' }} activeOptions={{ exact: exactFor(item.to) }}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="content" id="main" ref={mainRef} tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
