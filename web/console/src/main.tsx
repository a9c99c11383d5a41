// The merchant console's entry: React Query holds what the server said, the router decides what
// to show. A 401 from any request after login means the session ended: back to the login page.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, forgetSession, sessionQuery } from './api';
import { createConsoleRouter } from './router';
import './styles.css';

function onRequestError(error: unknown): void {
  if (!(error instanceof ApiError) || error.status !== 401) return;
  // Only a session that was open can end; a 401 at login is a wrong password, shown by the form.
  if (!queryClient.getQueryData(sessionQuery.queryKey)) return;
  forgetSession(queryClient);
  void router.navigate({ to: '/login', replace: true });
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onRequestError }),
  mutationCache: new MutationCache({ onError: onRequestError }),
  defaultOptions: {
    queries: {
      // An error answer (4xx) will not change by asking again; only a network failure might.
      retry: (failureCount, error) => !(error instanceof ApiError) && failureCount < 2,
    },
  },
});

const router = createConsoleRouter(queryClient);

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
