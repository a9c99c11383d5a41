// Choose a password through a one-time setup link (/console/setup?token=...), which also logs in.
// The password rule is the contract's own schema, so the page and the server say the same thing.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH, SetupRequest } from '../../../../contract/console/index.js';
import { api, ApiError, bodyOf, errorMessage, fieldError, rememberSession, sentence, sessionQuery } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../../../shared/Field';
import { HOME_PATH, PRODUCT_NAME } from '../navigation';

const route = getRouteApi('/setup');

function setupErrorMessage(error: unknown): string {
  // 404: unknown, used or expired; the server's message says so, the page says what to do.
  if (error instanceof ApiError && error.status === 404) return `${error.message} Ask your store's owner for a new setup link.`;
  return errorMessage(error);
}

export function SetupPage() {
  const { token } = route.useSearch();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<{ password?: string; confirmation?: string }>({});

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
        ) : (
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
            <ErrorMessage message={setup.isError ? setupErrorMessage(setup.error) : undefined} />
            <button type="submit" className="button primary wide" disabled={setup.isPending}>
              {setup.isPending ? 'Setting your password…' : 'Set password and log in'}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
