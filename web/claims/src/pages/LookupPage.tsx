// /claims/{store}: the shopper finds their order by its number and the email it was placed with,
// which opens a short session for that order. An unknown number and a wrong email get the same
// answer from the server, shown as it is; the values stay for a correction. After an order was not
// found, the store's support contact follows, when the store set one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, bodyOf, errorMessage, fieldError, pathParam, rememberSession, storeQuery, takeNotice } from '../api';
import { Contact } from '../components/Contact';
import { ErrorMessage, StatusMessage } from '../components/ErrorMessage';
import { Field } from '../../../shared/Field';
import { SubmitButton } from '../components/SubmitButton';
import { PageHeading } from '../components/PageHeading';

const route = getRouteApi('/$storeSlug/');

function lookupFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 400 && error.fieldErrors.some((item) => item.field === 'order_number' || item.field === 'email')) {
    return 'Check the fields marked below.';
  }
  return errorMessage(error);
}

export function LookupPage() {
  const { storeSlug } = route.useParams();
  const store = useQuery(storeQuery(storeSlug));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [orderNumber, setOrderNumber] = useState('');
  const [email, setEmail] = useState('');
  const [missing, setMissing] = useState<{ order_number?: string; email?: string }>({});
  // Put into the live region after the page is in place, so it is announced.
  const [notice, setNotice] = useState<string | undefined>();
  const sending = useRef(false);

  useEffect(() => {
    const left = takeNotice();
    if (left !== undefined) setNotice(left);
  }, []);

  const lookup = useMutation({
    mutationFn: async (body: { order_number: string; email: string }) =>
      bodyOf(await api.lookup({ params: { store_slug: pathParam(storeSlug) }, body }), 200),
    onSuccess: async (session) => {
      // A new session may be another order's: nothing read under the old one may show.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'store' });
      rememberSession(session);
      await navigate({ to: '/$storeSlug/order', params: { storeSlug } });
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A second tap before the first answer: one request. (The button's state shows a render later.)
    if (sending.current) return;
    setNotice(undefined);
    const blank = {
      ...(orderNumber.trim() === '' ? { order_number: 'Enter your order number.' } : {}),
      ...(email.trim() === '' ? { email: 'Enter the email you ordered with.' } : {}),
    };
    setMissing(blank);
    if (Object.keys(blank).length > 0) {
      lookup.reset();
      return;
    }
    sending.current = true;
    lookup.mutate({ order_number: orderNumber.trim(), email: email.trim() }, { onSettled: () => (sending.current = false) });
  };

  const storeName = store.data?.name;
  // Only after "no order matches" (never after a field error or too many tries), and only a contact the store set.
  const notFound = lookup.error instanceof ApiError && lookup.error.status === 404;
  const support = store.data !== undefined && (store.data.support_email !== null || store.data.support_url !== null) ? store.data : undefined;
  return (
    <div className="narrow">
      <title>{storeName === undefined ? 'Find your order' : `Find your order · ${storeName}`}</title>
      <PageHeading>Find your order</PageHeading>
      <StatusMessage message={notice} />
      <p className="lead">Something wrong with your parcel? Enter your order number and the email you ordered with to see your parcels and file a claim.</p>
      <form onSubmit={submit} noValidate className="card">
        <Field
          label="Order number"
          name="order_number"
          hint="It is in your order confirmation email."
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={orderNumber}
          onChange={(event) => setOrderNumber(event.target.value)}
          error={missing.order_number ?? fieldError(lookup.error, 'order_number')}
        />
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={missing.email ?? fieldError(lookup.error, 'email')}
        />
        <ErrorMessage message={lookup.isError ? lookupFailure(lookup.error) : undefined} />
        <SubmitButton busy={lookup.isPending} busyLabel="Finding your order…">
          Find my order
        </SubmitButton>
      </form>
      {notFound && support !== undefined ? (
        <div className="notice-box lookup-help">
          <h2>Still cannot find your order?</h2>
          <Contact store={support} />
        </div>
      ) : null}
    </div>
  );
}
