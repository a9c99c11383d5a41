// Log in with email and password. A wrong pair and an unknown email get the same answer from the
// server, shown as it is; so does throttling (429).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, bodyOf, errorMessage, fieldError, rememberSession, sessionQuery } from '../api';
import { ErrorMessage } from '../components/ErrorMessage';
import { Field } from '../../../shared/Field';
import { HOME_PATH, PRODUCT_NAME } from '../navigation';

export function LoginPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});

  const login = useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => bodyOf(await api.session.login({ body: credentials }), 200),
    onSuccess: async (session) => {
      rememberSession(session);
      queryClient.setQueryData(sessionQuery.queryKey, session);
      await navigate({ to: HOME_PATH, replace: true });
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const blank = {
      ...(email.trim() === '' ? { email: 'Enter your email.' } : {}),
      ...(password === '' ? { password: 'Enter your password.' } : {}),
    };
    setMissing(blank);
    if (Object.keys(blank).length > 0) return;
    login.mutate({ email: email.trim(), password });
  };

  return (
    <main className="auth-page" id="main">
      <title>{`Log in · ${PRODUCT_NAME}`}</title>
      <div className="auth-card">
        <p className="product-name">{PRODUCT_NAME}</p>
        <h1>Log in</h1>
        <form onSubmit={submit} noValidate>
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={missing.email ?? fieldError(login.error, 'email')}
          />
          <Field
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={missing.password ?? fieldError(login.error, 'password')}
          />
          <ErrorMessage message={login.isError ? errorMessage(login.error) : undefined} />
          <button type="submit" className="button primary wide" disabled={login.isPending}>
            {login.isPending ? 'Logging in…' : 'Log in'}
          </button>
        </form>
        <p className="auth-note">New here? Use the setup link you were given to choose your password.</p>
      </div>
    </main>
  );
}
