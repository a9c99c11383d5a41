// The shipments list's filters, each with how many shipments it shows: a delivery status, the
// shipments that need a look (carrier unknown, no scan for some days) as links, and a carrier and a
// number of days as choices applied together. Every filter is a link or a form that changes the URL.
import { getRouteApi, Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { DELIVERY_STATUSES } from '../../../../../contract/shipments.js';
import { DELIVERY_STATUS_LABEL, type ShipmentListPage } from './labels';
import { filtersOf, type ShipmentsSearch } from './search-params';

const route = getRouteApi('/logged-in/shipments');

/** The choices of "No scan for"; the list takes any number of days from 1 to 365 in its URL. */
const SILENT_CHOICES = [3, 7, 14, 30] as const;

type Counts = ShipmentListPage['counts'];

interface FilterLinkProps {
  label: string;
  count: number;
  search: ShipmentsSearch;
  selected: boolean;
}

function FilterLink({ label, count, search, selected }: FilterLinkProps) {
  return (
    <li>
      <Link to="/shipments" search={search} className={selected ? 'filter-pill shipment-filter selected' : 'filter-pill shipment-filter'} aria-current={selected ? 'page' : undefined}>
        {label} <span className="shipment-filter-count">{count}</span>
      </Link>
    </li>
  );
}

export function ShipmentFilters({ search, counts }: { search: ShipmentsSearch; counts: Counts | undefined }) {
  const filters = filtersOf(search);
  const none = Object.keys(filters).length === 0;
  const only = (key: keyof typeof filters) => Object.keys(filters).length === 1 && filters[key] !== undefined;
  const silentDays = counts?.silent_days ?? search.silent_days ?? 7;
  return (
    <div className="shipment-filters">
      <nav aria-label="Filter shipments by status">
        <ul className="shipment-filter-list">
          <FilterLink label="All" count={counts?.all ?? 0} search={{}} selected={none} />
          {DELIVERY_STATUSES.map((status) => (
            <FilterLink key={status} label={DELIVERY_STATUS_LABEL[status]} count={counts?.by_status[status] ?? 0} search={{ status }} selected={only('status') && filters.status === status} />
          ))}
        </ul>
      </nav>
      <nav aria-label="Shipments that need a look">
        <ul className="shipment-filter-list">
          <FilterLink label="Carrier unknown" count={counts?.carrier_unknown ?? 0} search={{ carrier_unknown: true }} selected={only('carrier_unknown')} />
          <FilterLink label={`No scan for ${silentDays} days`} count={counts?.silent ?? 0} search={{ silent_days: silentDays }} selected={only('silent_days')} />
        </ul>
      </nav>
      <ChoiceForm key={`${filters.carrier ?? ''} ${filters.silent_days ?? ''}`} search={search} counts={counts} />
    </div>
  );
}

/** A carrier and a number of days, applied with the status already chosen. */
function ChoiceForm({ search, counts }: { search: ShipmentsSearch; counts: Counts | undefined }) {
  const id = useId();
  const navigate = route.useNavigate();
  const [carrier, setCarrier] = useState(search.carrier ?? '');
  const [days, setDays] = useState(search.silent_days === undefined ? '' : String(search.silent_days));
  const carriers = counts?.by_carrier ?? [];
  // A carrier or a number of days in the URL that the choices do not list is still shown, as chosen.
  const carrierListed = search.carrier === undefined || carriers.some((item) => item.courier === search.carrier);
  const dayChoices: number[] = [...SILENT_CHOICES];
  if (search.silent_days !== undefined && !dayChoices.includes(search.silent_days)) dayChoices.push(search.silent_days);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate({
      search: {
        ...(search.status === undefined ? {} : { status: search.status }),
        ...(search.carrier_unknown === undefined ? {} : { carrier_unknown: search.carrier_unknown }),
        ...(carrier === '' ? {} : { carrier }),
        ...(days === '' ? {} : { silent_days: Number(days) }),
      },
    });
  };

  return (
    <form className="shipment-choices" aria-label="Filter shipments by carrier and scans" onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-carrier`}>Carrier</label>
        <select id={`${id}-carrier`} className="text-input" value={carrier} onChange={(event) => setCarrier(event.target.value)}>
          <option value="">Any carrier</option>
          {carriers.map((item) => (
            <option key={item.courier} value={item.courier}>{`${item.courier_name} (${item.count})`}</option>
          ))}
          {carrierListed ? null : <option value={search.carrier}>{`${search.carrier ?? ''} (0)`}</option>}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-days`}>No scan for</label>
        <select id={`${id}-days`} className="text-input" value={days} onChange={(event) => setDays(event.target.value)}>
          <option value="">Any time</option>
          {dayChoices.map((choice) => (
            <option key={choice} value={String(choice)}>{`${choice} days or more`}</option>
          ))}
        </select>
      </div>
      <button type="submit" className="button secondary">
        Apply
      </button>
    </form>
  );
}
