// Choose a password through a one-time setup link (/console/setup?token=...), which also logs in.
// The page first asks whether the link still works (the token in a POST body, never in an address
// the service logs): a used or expired link gets a page that says so and leads to the login, not a
// form that would only be refused. The password rule is the contract's own schema, so the page and
// the server say the same thing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH, SetupRequest } from '../../../../contract/console/index.js';
import { api, ApiError, bodyOf, errorMessage, fieldError, rememberSession, sentence, sessionQuery } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../../../shared/Field';
import { HOME_PATH, PRODUCT_NAME } from '../navigation';

const route = getRouteApi('/setup');

/** 404: the link is unknown, used or expired (the server says no more, whichever it is). */
const isSpent = (error: unknown) => error instanceof ApiError && error.status === 404;

export function SetupPage() {
  const { token } = route.useSearch();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<{ password?: string; confirmation?: string }>({});

  // Asked once per visit: kept out of the cache afterwards, and never asked again on a refocus.
  const check = useQuery({
    queryKey: ['setup-check', token] as const,
    queryFn: async () => bodyOf(await api.session.checkSetup({ body: { token } }), 200),
    enabled: token !== '',
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });

  const setup = useMutation({
    mutationFn: async (body: { token: string; password: string }) => bodyOf(await api.session.setup({ body }), 200),
    onSuccess: async (session) => {
      rememberSession(session);
      queryClient.setQueryData(sessionQuery.queryKey, session);
      // Replace the history entry: the spent token should not stay in the back button.
      await navigate({ to: HOME_PATH, replace: true });
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = SetupRequest.shape.password.safeParse(password);
    const found = {
      ...(checked.success ? {} : { password: sentence(checked.error.issues[0]?.message ?? 'is not a valid password') }),
      ...(confirmation !== password ? { confirmation: 'The two passwords are not the same.' } : {}),
    };
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setup.mutate({ token, password });
  };

  // Spent when asked about, or spent meanwhile (the setup itself answers 404).
  const spent = isSpent(check.error) || isSpent(setup.error);

  if (spent) {
    return (
      <main className="auth-page" id="main">
        <title>{`Setup link used or expired · ${PRODUCT_NAME}`}</title>
        <div className="auth-card">
          <p className="product-name">{PRODUCT_NAME}</p>
          <h1>This setup link was already used or has expired.</h1>
          <p>If you chose your password with it, log in with your email and that password. If not, ask your store&apos;s owner for a new link.</p>
          <p>
            <Link to="/login" replace>
              Go to the login page
            </Link>
          </p>
        </div>
      </main>
    );
  }

  return (
    <main className="auth-page" id="main">
      <title>{`Choose your password · ${PRODUCT_NAME}`}</title>
      <div className="auth-card">
        <p className="product-name">{PRODUCT_NAME}</p>
        <h1>Choose your password</h1>
        {token === '' ? (
          <p className="notice">
            This setup link has no token. Open the whole link you were given, or ask your store&apos;s owner for a new one.
          </p>
        ) : check.isPending ? (
          <p className="muted" aria-live="polite">
            Checking your setup link…
          </p>
        ) : (
          // A check that failed otherwise (the network, a busy server) still offers the form: the setup judges the link itself.
          <form onSubmit={submit} noValidate>
            <Field
              label="Password"
              type="password"
              name="password"
              autoComplete="new-password"
              hint={`At least ${PASSWORD_MIN_LENGTH} characters. A few words you will remember make a good one.`}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={problems.password ?? fieldError(setup.error, 'password')}
            />
            <Field
              label="Confirm password"
              type="password"
              name="confirm-password"
              autoComplete="new-password"
              value={confirmation}
              onChange={(event) => setConfirmation(event.target.value)}
              error={problems.confirmation}
            />
            <ErrorMessage message={setup.isError ? errorMessage(setup.error) : undefined} />
            <button type="submit" className="button primary wide" disabled={setup.isPending}>
              {setup.isPending ? 'Setting your password…' : 'Set password and log in'}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
