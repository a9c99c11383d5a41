// The orders list's filters: a status and whether the shopper took protection, each a row of links
// (one press, and the URL holds it), and the days an order was placed, a form of two dates. Each
// keeps the search and the other filters, and starts at the first page.
import { getRouteApi, Link } from '@tanstack/react-router';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ORDER_PROTECTION_FILTERS, ORDER_STATUS_FILTERS } from '../../../../../contract/console/index.js';
import { formatDay } from '../../components/calendar';
import { PROTECTION_FILTER_LABEL, STATUS_FILTER_LABEL } from './labels';
import { withChange, type OrdersQuery } from './search-params';

const route = getRouteApi('/logged-in/orders');

/** The filters in words: "cancelled, not protected, placed from Nov 3, 2026 to Nov 4, 2026". */
export function describeFilters(query: OrdersQuery): string {
  const from = query.placed_from === undefined ? null : formatDay(query.placed_from);
  const to = query.placed_to === undefined ? null : formatDay(query.placed_to);
  const placed =
    from !== null && to !== null ? (from === to ? `placed on ${from}` : `placed from ${from} to ${to}`) : from !== null ? `placed on ${from} or later` : to !== null ? `placed on ${to} or earlier` : null;
  return [
    query.status === undefined ? null : STATUS_FILTER_LABEL[query.status].toLowerCase(),
    query.protection === undefined ? null : PROTECTION_FILTER_LABEL[query.protection].toLowerCase(),
    placed,
  ]
    .filter((part) => part !== null)
    .join(', ');
}

interface PillsProps<K extends 'status' | 'protection'> {
  query: OrdersQuery;
  filter: K;
  /** The group's visible name, which names its navigation too. */
  label: string;
  choices: ReadonlyArray<{ value: NonNullable<OrdersQuery[K]>; label: string }>;
}

/** One filter's choices as links, "All" first; the chosen one marked, for screen readers too (aria-current). */
function Pills<K extends 'status' | 'protection'>({ query, filter, label, choices }: PillsProps<K>) {
  const id = useId();
  const current = query[filter];
  const options = [{ value: undefined, label: 'All' }, ...choices];
  return (
    <nav className="orders-filter-group" aria-labelledby={`${id}-label`}>
      <span className="orders-filter-label" id={`${id}-label`}>
        {label}
      </span>
      <ul className="orders-filter-list">
        {options.map((option) => {
          const selected = option.value === current;
          return (
            <li key={option.label}>
              <Link
                to="/orders"
                search={withChange(query, { [filter]: option.value })}
                // The router marks a link to the page shown (this very search) as the current page;
                // the chosen pill is that link, on a later page of the list too.
                activeOptions={{ exact: true }}
                className={selected ? 'filter-pill orders-filter selected' : 'filter-pill orders-filter'}
                aria-current={selected ? 'page' : undefined}
              >
                {option.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function OrderFilters({ query }: { query: OrdersQuery }) {
  return (
    <div className="orders-filters">
      <div className="orders-filter-groups">
        <Pills query={query} filter="status" label="Status" choices={ORDER_STATUS_FILTERS.map((value) => ({ value, label: STATUS_FILTER_LABEL[value] }))} />
        <Pills
          query={query}
          filter="protection"
          label="Protection"
          choices={ORDER_PROTECTION_FILTERS.map((value) => ({ value, label: PROTECTION_FILTER_LABEL[value] }))}
        />
      </div>
      <PlacedForm query={query} />
    </div>
  );
}

/** The days placed, both included, in UTC as billing counts them; either may be left empty. */
function PlacedForm({ query }: { query: OrdersQuery }) {
  const id = useId();
  const navigate = route.useNavigate();
  const from = query.placed_from ?? '';
  const to = query.placed_to ?? '';
  const [draft, setDraft] = useState({ from, to });
  const [backwards, setBackwards] = useState(false);
  const toRef = useRef<HTMLInputElement>(null);
  // Back, or a link, changes the days: the fields show them (not by remounting the form, which
  // would take the focus from the button pressed).
  const [shown, setShown] = useState(`${from} ${to}`);
  if (shown !== `${from} ${to}`) {
    setShown(`${from} ${to}`);
    setDraft({ from, to });
    setBackwards(false);
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Date fields give YYYY-MM-DD or nothing; a last day before the first is refused here, on the field.
    const isBackwards = draft.from !== '' && draft.to !== '' && draft.to < draft.from;
    setBackwards(isBackwards);
    if (isBackwards) {
      toRef.current?.focus();
      return;
    }
    void navigate({ search: withChange(query, { placed_from: draft.from === '' ? undefined : draft.from, placed_to: draft.to === '' ? undefined : draft.to }) });
  };

  const change = (key: 'from' | 'to', value: string) => {
    setBackwards(false);
    setDraft((current) => ({ ...current, [key]: value }));
  };

  return (
    <form className="orders-dates" aria-labelledby={`${id}-legend`} onSubmit={submit} noValidate>
      <p className="orders-filter-label" id={`${id}-legend`}>
        Placed between
      </p>
      <p className="field-hint orders-dates-hint" id={`${id}-hint`}>
        Both days included, in UTC. Leave one empty for no limit on that side.
      </p>
      <div className="orders-dates-row">
        <div className="field">
          <label htmlFor={`${id}-from`}>From</label>
          <input
            className="text-input"
            id={`${id}-from`}
            type="date"
            name="placed_from"
            value={draft.from}
            aria-describedby={`${id}-hint`}
            onChange={(event) => change('from', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>To</label>
          <input
            className="text-input"
            id={`${id}-to`}
            ref={toRef}
            type="date"
            name="placed_to"
            value={draft.to}
            min={draft.from === '' ? undefined : draft.from}
            aria-invalid={backwards ? true : undefined}
            aria-describedby={backwards ? `${id}-hint ${id}-error` : `${id}-hint`}
            onChange={(event) => change('to', event.target.value)}
          />
        </div>
        <button type="submit" className="button secondary">
          Apply dates
        </button>
        {from === '' && to === '' ? null : (
          <Link to="/orders" search={withChange(query, { placed_from: undefined, placed_to: undefined })} className="orders-dates-clear">
            Any date
          </Link>
        )}
      </div>
      {backwards ? (
        <p className="field-error" id={`${id}-error`}>
          The last day must be the same as the first or later.
        </p>
      ) : null}
    </form>
  );
}
