// What a page shows when it fails to render: a message, never a blank screen.
import type { ErrorComponentProps } from '@tanstack/react-router';
import { errorMessage } from '../api';
import { PageHeading } from '../components/PageHeading';

export function ErrorPage({ error, reset }: ErrorComponentProps) {
  return (
    <main className="page narrow" id="main">
      <title>Something went wrong</title>
      <PageHeading>Something went wrong</PageHeading>
      <p role="alert">{errorMessage(error)}</p>
      <button type="button" className="button primary" onClick={reset}>
        Try again
      </button>
    </main>
  );
}
