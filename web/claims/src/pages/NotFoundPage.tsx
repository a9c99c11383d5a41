import { PageHeading } from '../components/PageHeading';

export function NotFoundPage() {
  return (
    <main className="page narrow" id="main">
      <title>Page not found</title>
      <PageHeading>Page not found</PageHeading>
      <p>There is no page at this address. Open the claim link from your order confirmation email, or contact the store where you ordered.</p>
    </main>
  );
}
