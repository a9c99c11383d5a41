// The merchant console's entry: React Query holds what the server said, the router decides what
// to show. A 401 from any request after login means the session ended: back to the login page.
import { mountApp, newQueryClient } from '../../shared/app-root';
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

const queryClient = newQueryClient(onRequestError);

const router = createConsoleRouter(queryClient);

mountApp(queryClient, router);
