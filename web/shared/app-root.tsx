// How both browser apps start: one React Query client that sends every request's failure to the
// app's handler (a 401 ends the session) and retries network failures only, and the app's router
// rendered into index.html's #root.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { retryNetworkFailures } from './api-errors';

export function newQueryClient(onRequestError: (error: unknown) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onRequestError }),
    mutationCache: new MutationCache({ onError: onRequestError }),
    defaultOptions: { queries: { retry: retryNetworkFailures } },
  });
}

export function mountApp(queryClient: QueryClient, router: AnyRouter): void {
  const root = document.getElementById('root');
  if (root === null) throw new Error('index.html has no #root element.');
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
