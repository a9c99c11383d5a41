import { Link } from '@tanstack/react-router';
import { PRODUCT_NAME } from '../navigation';

export function NotFoundPage() {
  return (
    <main className="auth-page" id="main">
      <title>{`Page not found · ${PRODUCT_NAME}`}</title>
      <div className="auth-card">
        <p className="product-name">{PRODUCT_NAME}</p>
        <h1>Page not found</h1>
        <p>There is no page at this address.</p>
        <p>
          <Link to="/">Go to the console</Link>
        </p>
      </div>
    </main>
  );
}
