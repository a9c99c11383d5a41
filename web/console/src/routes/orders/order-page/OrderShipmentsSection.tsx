// The order's shipments, each linking to its page with its tracking timeline.
import { Link } from '@tanstack/react-router';
import { Section } from '../../../components/Section';
import { TableScroll } from '../../../components/TableScroll';
import { formatDateTime } from '../../../format';
import { DeliveryStatusBadge } from '../../shipments/DeliveryStatusBadge';
import { courierLabel, type Shipment } from '../../shipments/labels';

export function OrderShipmentsSection({ shipments }: { shipments: readonly Shipment[] }) {
  return (
    <Section title="Shipments">
      {shipments.length === 0 ? (
        <p className="muted">No shipments yet.</p>
      ) : (
        <TableScroll label="The order's shipments">
          <table className="table orders-detail-table">
            <caption className="visually-hidden">The order&apos;s shipments</caption>
            <thead>
              <tr>
                <th scope="col">Tracking number</th>
                <th scope="col">Carrier</th>
                <th scope="col">Status</th>
                <th scope="col">Registered</th>
              </tr>
            </thead>
            <tbody>
              {shipments.map((shipment) => (
                <tr key={shipment.id}>
                  <td data-label="Tracking number">
                    <Link
                      to="/shipments/$trackingNumber"
                      params={{ trackingNumber: shipment.tracking_number }}
                      className="orders-tracking-link"
                    >
                      {shipment.tracking_number}
                    </Link>
                  </td>
                  <td data-label="Carrier">{courierLabel(shipment.courier)}</td>
                  <td data-label="Status">
                    <DeliveryStatusBadge status={shipment.delivery_status} />
                  </td>
                  <td data-label="Registered">
                    <time dateTime={shipment.created_on}>{formatDateTime(shipment.created_on)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}
