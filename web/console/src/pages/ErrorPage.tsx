// What a page shows when it fails to render: a message, never a blank screen.
import type { ErrorComponentProps } from '@tanstack/react-router';
import { errorMessage } from '../api';
import { PRODUCT_NAME } from '../navigation';

export function ErrorPage({ error, reset }: ErrorComponentProps) {
  return (
    <main className="auth-page" id="main">
      <title>{`Error · ${PRODUCT_NAME}`}</title>
      <div className="auth-card">
        <p className="product-name">{PRODUCT_NAME}</p>
        <h1>Something went wrong</h1>
        <p role="alert">{errorMessage(error)}</p>
        <button type="button" className="button primary" onClick={reset}>
          Try again
        </button>
      </div>
    </main>
  );
}
