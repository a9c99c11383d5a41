// /shipments: the store's shipments, newest first, a page at a time, by delivery status, carrier, an
// unknown carrier or days without a scan, each filter with its count. Each row links to the
// shipment's page and its order's. The filters and the page are in the URL.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Ref } from 'react';
import { sessionQuery } from '../../api';
import { CursorPager, usePageFocus } from '../../components/CursorPager';
import { ListLoadError } from '../../components/ListLoadError';
import { TableScroll } from '../../components/TableScroll';
import { formatDateTime } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import { DELIVERY_STATUS_LABEL, type ShipmentSummary } from './labels';
import { shipmentListQuery } from './queries';
import { filtersOf, type ShipmentsSearch } from './search-params';
import { ShipmentFilters } from './ShipmentFilters';
import '../orders/orders.css';
import './shipments.css';
import '../../components/filter-pill.css';
import './shipments-list.css';

const route = getRouteApi('/logged-in/shipments');

/** The filters in words: "Exception, UPS, no scan for 7 days or more". */
function describeFilters(search: ShipmentsSearch): string {
  const parts = [
    search.status === undefined ? null : DELIVERY_STATUS_LABEL[search.status],
    search.carrier === undefined ? null : `carrier ${search.carrier}`,
    search.carrier_unknown === true ? 'carrier unknown' : null,
    search.silent_days === undefined ? null : `no scan for ${search.silent_days} days or more`,
  ].filter((part) => part !== null);
  return parts.join(', ');
}

export function ShipmentsPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const search = route.useSearch();
  const cursors = search.cursors ?? [];
  const filters = filtersOf(search);
  const filtered = Object.keys(filters).length > 0;
  const described = describeFilters(search);
  const results = useQuery(shipmentListQuery(filters, cursors.at(-1)));
  const pageNumber = cursors.length + 1;
  const tableRef = usePageFocus(cursors, results.isSuccess);

  const rows = results.data?.data ?? [];
  return (
    <>
      <title>{`Shipments${filtered ? ` (${described})` : ''} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Shipments</h1>
      </div>
      <ShipmentFilters search={search} counts={results.data?.counts} />
      {filtered ? (
        <p className="shipments-current">
          Showing shipments: <strong>{described}</strong>.{' '}
          <Link to="/shipments" search={{}}>
            Show every shipment
          </Link>
        </p>
      ) : null}
      <p className="visually-hidden" role="status">
        {results.isSuccess ? (rows.length === 0 ? 'No shipments found.' : `Page ${pageNumber}: ${rows.length} shipments.`) : ''}
      </p>

      {results.isPending ? (
        <p className="muted" aria-live="polite">
          Loading shipments…
        </p>
      ) : results.isError ? (
        <ListLoadError
          error={results.error}
          what="shipments"
          firstPage={
            <Link to="/shipments" search={{}}>
              Go to the first page of shipments
            </Link>
          }
        />
      ) : (
        <>
          {rows.length === 0 ? (
            <p className="empty-state">
              {pageNumber > 1
                ? 'No more shipments.'
                : filtered
                  ? 'No shipment matches these filters.'
                  : 'No shipments yet. Shipments appear here once your store registers tracking numbers through the API or a platform.'}
            </p>
          ) : (
            <TableScroll label="Shipments">
              <ShipmentTable ref={tableRef} shipments={rows} caption={`Shipments${filtered ? ` (${described})` : ''}, newest first, page ${pageNumber}`} />
            </TableScroll>
          )}
          <CursorPager
            label="Pages of shipments"
            cursors={cursors}
            nextCursor={results.data.next_cursor}
            link={(pages, text) => (
              <Link to="/shipments" search={{ ...filters, ...(pages === undefined ? {} : { cursors: pages }) }} className="button secondary">
                {text}
              </Link>
            )}
          />
        </>
      )}
    </>
  );
}

function ShipmentTable({ shipments, caption, ref }: { shipments: readonly ShipmentSummary[]; caption: string; ref: Ref<HTMLTableElement> }) {
  return (
    <table className="table shipments-table" ref={ref} tabIndex={-1}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Tracking number</th>
          <th scope="col">Order</th>
          <th scope="col">Carrier</th>
          <th scope="col">Status</th>
          <th scope="col">Last scan</th>
          <th scope="col">Days without a scan</th>
        </tr>
      </thead>
      <tbody>
        {shipments.map((shipment) => (
          <tr key={`${shipment.tracking_number} ${shipment.created_on}`}>
            <td data-label="Tracking number">
              <Link to="/shipments/$trackingNumber" params={{ trackingNumber: shipment.tracking_number }} className="orders-tracking-link">
                {shipment.tracking_number}
              </Link>
            </td>
            <td data-label="Order">
              <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: shipment.source_order_id }} className="orders-order-link">
                {shipment.source_order_id}
              </Link>
              <span className="muted shipments-order-number">{shipment.order_number}</span>
            </td>
            <td data-label="Carrier">
              <span className={shipment.courier === 'unknown' ? 'shipment-unknown-carrier' : undefined}>{shipment.courier_name}</span>
            </td>
            <td data-label="Status">
              <DeliveryStatusBadge status={shipment.delivery_status} />
            </td>
            <td data-label="Last scan">
              {shipment.last_scan_at === null ? <span className="muted">No scan yet</span> : <time dateTime={shipment.last_scan_at}>{formatDateTime(shipment.last_scan_at)}</time>}
            </td>
            <td data-label="Days without a scan" className="shipments-days">
              {shipment.days_without_scan === null ? (
                <span className="muted">Not expected</span>
              ) : (
                <span className={shipment.days_without_scan >= 7 ? 'shipments-days-long' : undefined}>{shipment.days_without_scan}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
