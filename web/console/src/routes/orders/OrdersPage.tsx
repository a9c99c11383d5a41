// /orders: the store's orders by the day each was placed, newest first, a page at a time: searched
// by the start of an order number, the shopper's email or name, or a claim reference, and filtered
// by status, protection and the days placed. The search, the filters and the page are in the URL.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent, type Ref } from 'react';
import { sessionQuery } from '../../api';
import { CursorPager, usePageFocus } from '../../components/CursorPager';
import { ListLoadError } from '../../components/ListLoadError';
import { TableScroll } from '../../components/TableScroll';
import { formatCents, formatDateTime } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { describeFilters, OrderFilters } from './OrderFilters';
import { orderStatusLabel, protectionLabel, type OrderSummary } from './labels';
import { orderSearchQuery } from './queries';
import { isFiltered, queryOf, withChange, type OrdersQuery } from './search-params';
import '../../components/filter-pill.css';
import './orders.css';

const route = getRouteApi('/logged-in/orders');

/** What the list shows, in words: “1002”, cancelled, placed from Nov 3, 2026 to Nov 4, 2026. */
function describe(query: OrdersQuery): string {
  return [query.q === undefined ? null : `matching “${query.q}”`, describeFilters(query)].filter((part) => part !== null && part !== '').join(', ');
}

export function OrdersPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const search = route.useSearch();
  const cursors = search.cursors ?? [];
  const query = queryOf(search);
  const q = query.q ?? '';
  const filtered = isFiltered(query);
  const described = describe(query);
  const results = useQuery(orderSearchQuery(query, cursors.at(-1)));
  const pageNumber = cursors.length + 1;
  const tableRef = usePageFocus(cursors, results.isSuccess);

  const rows = results.data?.data ?? [];
  return (
    <>
      <title>{`Orders${described === '' ? '' : ` ${described}`} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Orders</h1>
      </div>
      <SearchForm q={q} query={query} />
      <OrderFilters query={query} />
      {described === '' ? null : (
        <p className="orders-current">
          Showing orders: <strong>{described}</strong>.{' '}
          <Link to="/orders" search={{}}>
            Show every order
          </Link>
        </p>
      )}
      {/* Always in the page, so what a search found is announced (a region inserted with its text often is not). */}
      <p className="visually-hidden" role="status">
        {results.isSuccess ? (rows.length === 0 ? 'No orders found.' : `Page ${pageNumber}: ${rows.length} orders.`) : ''}
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
            <Link to="/orders" search={query}>
              Go to the first page of these orders
            </Link>
          }
        />
      ) : (
        <>
          {rows.length === 0 ? (
            <p className="empty-state">
              {pageNumber > 1
                ? 'No more orders.'
                : q !== ''
                  ? `No order matches “${q}”${filtered ? ' with these filters' : ''}. Search by the start of an order number, an email or a name, or by a claim reference.`
                  : filtered
                    ? 'No order matches these filters.'
                    : 'No orders yet. Orders appear here once your store registers them through the API or a platform.'}
            </p>
          ) : (
            <TableScroll label="Orders found">
              <OrderTable ref={tableRef} orders={rows} caption={`Orders${described === '' ? '' : ` ${described}`}, newest placed first, page ${pageNumber}`} />
            </TableScroll>
          )}
          <CursorPager
            label="Pages of orders"
            cursors={cursors}
            nextCursor={results.data.next_cursor}
            link={(pages, text) => (
              <Link to="/orders" search={{ ...query, ...(pages === undefined ? {} : { cursors: pages }) }} className="button secondary">
                {text}
              </Link>
            )}
          />
        </>
      )}
    </>
  );
}

function SearchForm({ q, query }: { q: string; query: OrdersQuery }) {
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
    // A new search keeps the filters and starts at its first page.
    void navigate({ search: withChange(query, { q: wanted === '' ? undefined : wanted }) });
  };

  return (
    <form className="orders-search" role="search" aria-label="Orders" onSubmit={submit}>
      <label htmlFor={`${id}-q`}>Search orders</label>
      <p className="field-hint" id={`${id}-hint`}>
        The start of an order number (#1002 or 1002), of the shopper&apos;s email or name, or a claim reference. Leave it empty to list every order.
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
    </form>
  );
}

function OrderTable({ orders, caption, ref }: { orders: readonly OrderSummary[]; caption: string; ref: Ref<HTMLTableElement> }) {
  return (
    <table className="table orders-table" ref={ref} tabIndex={-1}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Customer</th>
          <th scope="col">Placed</th>
          <th scope="col" className="orders-money-heading">
            Total
          </th>
          <th scope="col">Protection</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id}>
            <td data-label="Order">
              <span className="orders-stack">
                <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: order.source_order_id }} className="orders-order-link">
                  {order.source_order_number}
                </Link>
                <span className="muted orders-secondary orders-number">{order.order_number}</span>
              </span>
            </td>
            <td data-label="Customer">
              {order.has_pii ? (
                order.customer_name === null ? (
                  <span className="muted">No name given</span>
                ) : (
                  <span className="orders-customer">{order.customer_name}</span>
                )
              ) : (
                <span className="orders-erased">Personal data erased</span>
              )}
            </td>
            <td data-label="Placed">
              <span className="orders-stack">
                <time dateTime={order.placed_on}>{formatDateTime(order.placed_on)}</time>
                <span className="muted orders-secondary">
                  Registered <time dateTime={order.created_on}>{formatDateTime(order.created_on)}</time>
                </span>
              </span>
            </td>
            <td data-label="Total" className="orders-money">
              {order.order_total_cents === null ? <span className="muted">Not sent</span> : formatCents(order.order_total_cents)}
            </td>
            <td data-label="Protection">
              <span className="orders-stack">
                <span className={`orders-protection ${order.insurance_selected ? 'orders-protection-yes' : 'orders-protection-no'}`}>{protectionLabel(order.insurance_selected)}</span>
                {order.insurance_selected || order.premium_cents !== 0 ? (
                  <span className="muted orders-secondary orders-money">{`${formatCents(order.premium_cents)} premium`}</span>
                ) : null}
              </span>
            </td>
            <td data-label="Status">
              <span className={`orders-status orders-status-${order.status === 'cancelled' ? 'cancelled' : 'active'}`}>{orderStatusLabel(order.status)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
