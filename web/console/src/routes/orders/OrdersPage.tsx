// /orders: the store's orders, newest first, a page at a time, or those a search finds (a source
// order id, an order number, or the shopper's whole email). The search and the page are in the URL.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type FormEvent, type Ref } from 'react';
import { sessionQuery } from '../../api';
import { CursorPager } from '../../components/CursorPager';
import { ListLoadError } from '../../components/ListLoadError';
import { TableScroll } from '../../components/TableScroll';
import { formatCents, formatDateTime } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { orderStatusLabel, protectionLabel, type OrderSummary } from './labels';
import { orderSearchQuery } from './queries';
import './orders.css';

const route = getRouteApi('/logged-in/orders');

export function OrdersPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const { q = '', cursors = [] } = route.useSearch();
  const results = useQuery(orderSearchQuery(q, cursors.at(-1)));
  const pageNumber = cursors.length + 1;
  const tableRef = useRef<HTMLTableElement>(null);
  // After "Next page", "Previous page" or Back, the link pressed may be gone: focus goes to the new
  // page's table, whose caption says which page it is. Not on the first load, which focuses the h1.
  const trail = cursors.join(' ');
  const shownTrail = useRef(trail);
  useEffect(() => {
    if (!results.isSuccess || trail === shownTrail.current) return;
    shownTrail.current = trail;
    tableRef.current?.focus();
  }, [trail, results.isSuccess]);

  return (
    <>
      <title>{`${q === '' ? 'Orders' : `Orders matching “${q}”`} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Orders</h1>
      </div>
      <SearchForm q={q} />
      {/* Always in the page, so what a search found is announced (a region inserted with its text often is not). */}
      <p className="visually-hidden" role="status">
        {results.isSuccess ? (results.data.data.length === 0 ? 'No orders found.' : `Page ${pageNumber}: ${results.data.data.length} orders.`) : ''}
      </p>

      {results.isPending ? (
        <p className="muted" aria-live="polite">
          Loading orders…
        </p>
      ) : results.isError ? (
        <ListLoadError
          error={results.error}
          what="orders"
          firstPage={
            <Link to="/orders" search={{}}>
              Go to the first page of orders
            </Link>
          }
        />
      ) : (
        <>
          {results.data.data.length === 0 ? (
            <p className="empty-state">
              {q === ''
                ? pageNumber === 1
                  ? 'No orders yet. Orders appear here once your store registers them through the API or a platform.'
                  : 'No more orders.'
                : `No order matches “${q}”. Search by the whole source order id, order number or email.`}
            </p>
          ) : (
            <TableScroll label="Orders found">
              <OrderTable ref={tableRef} orders={results.data.data} q={q} pageNumber={pageNumber} />
            </TableScroll>
          )}
          <CursorPager
            label="Pages of orders"
            cursors={cursors}
            nextCursor={results.data.next_cursor}
            link={(trail, text) => (
              <Link to="/orders" search={{ ...(q === '' ? {} : { q }), ...(trail === undefined ? {} : { cursors: trail }) }} className="button secondary">
                {text}
              </Link>
            )}
          />
        </>
      )}
    </>
  );
}

function SearchForm({ q }: { q: string }) {
  const id = useId();
  const navigate = route.useNavigate();
  const [text, setText] = useState(q);
  // Back, or a link to another search, changes the search: the field shows it. (Not by remounting
  // the form, which would take the focus from the field after Enter.)
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q);
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = text.trim();
    // A new search starts at its first page.
    void navigate({ search: wanted === '' ? {} : { q: wanted } });
  };

  return (
    <form className="orders-search" role="search" aria-label="Orders" onSubmit={submit}>
      <label htmlFor={`${id}-q`}>Search orders</label>
      <p className="field-hint" id={`${id}-hint`}>
        A source order id, an order number, or the shopper&apos;s email. Leave it empty to list every order.
      </p>
      <div className="orders-search-row">
        <input
          className="text-input"
          id={`${id}-q`}
          type="search"
          name="q"
          value={text}
          maxLength={254}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="button primary">
          Search
        </button>
      </div>
      {q === '' ? null : (
        <p className="orders-search-current">
          Showing orders matching <strong>“{q}”</strong>.{' '}
          <Link to="/orders" search={{}}>
            Show every order
          </Link>
        </p>
      )}
    </form>
  );
}

interface OrderTableProps {
  orders: readonly OrderSummary[];
  q: string;
  pageNumber: number;
  ref: Ref<HTMLTableElement>;
}

function OrderTable({ orders, q, pageNumber, ref }: OrderTableProps) {
  return (
    <table className="table orders-table" ref={ref} tabIndex={-1}>
      <caption className="visually-hidden">{`${q === '' ? 'Orders' : `Orders matching “${q}”`}, newest first, page ${pageNumber}`}</caption>
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Number</th>
          <th scope="col">Status</th>
          <th scope="col">Protection</th>
          <th scope="col">Net premium</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id}>
            <td data-label="Order">
              <span className="orders-order-cell">
                <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: order.source_order_id }} className="orders-order-link">
                  {order.source_order_id}
                </Link>
                {order.has_pii ? null : <span className="orders-erased">Personal data erased</span>}
              </span>
            </td>
            <td data-label="Number">
              <span className="orders-number">{order.order_number}</span>
              {order.source_order_number === order.source_order_id ? null : <span className="muted orders-source-number">{order.source_order_number}</span>}
            </td>
            <td data-label="Status">
              <span className={`orders-status orders-status-${order.status === 'cancelled' ? 'cancelled' : 'active'}`}>{orderStatusLabel(order.status)}</span>
            </td>
            <td data-label="Protection">{protectionLabel(order.insurance_selected)}</td>
            <td data-label="Net premium" className="orders-money">
              {formatCents(order.premium_cents)}
            </td>
            <td data-label="Created">
              <time dateTime={order.created_on}>{formatDateTime(order.created_on)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
