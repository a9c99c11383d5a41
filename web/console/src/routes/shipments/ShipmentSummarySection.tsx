// The shipment at a glance: number, carrier, status, its order, and dates.
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Facts, Section } from '../../components/Section';
import { formatDay } from '../../components/calendar';
import { formatDateTime } from '../../format';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import { courierLabel, UNKNOWN_COURIER, type Shipment, type ShipmentDetail } from './labels';

interface ShipmentSummarySectionProps {
  shipment: Shipment;
  order: ShipmentDetail['order'];
  maySetCarrier: boolean;
}

const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** The carrier's estimate is a calendar day ("2026-12-01"), the same day in every time zone. */
const day = (date: string) => <time dateTime={date}>{formatDay(date)}</time>;

export function ShipmentSummarySection({ shipment, order, maySetCarrier }: ShipmentSummarySectionProps) {
  const unknownCarrier = shipment.courier === UNKNOWN_COURIER;
  const facts: Array<readonly [string, ReactNode]> = [
    ['Tracking number', <code className="shipment-number">{shipment.tracking_number}</code>],
    ['Carrier', unknownCarrier ? <span className="shipment-unknown-carrier">Unknown: not tracked</span> : <span className="shipment-carrier">{courierLabel(shipment.courier)}</span>],
    ['Status', <DeliveryStatusBadge status={shipment.delivery_status} />],
  ];
  facts.push(
    ['Order', <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: order.source_order_id }}>{order.source_order_id}</Link>],
    ['Expected delivery', shipment.expected_delivery_date === null ? <span className="muted">Not known</span> : day(shipment.expected_delivery_date)],
    ['Registered', when(shipment.created_on)],
    ['Last changed', when(shipment.updated_on)],
    ['Cancelled', shipment.cancelled_on === null ? 'No' : when(shipment.cancelled_on)],
  );
  if (shipment.tracking_url !== null) {
    facts.push([
      "Carrier's tracking page",
      <a href={shipment.tracking_url} rel="noreferrer" target="_blank">
        Track with {courierLabel(shipment.courier)} <span className="visually-hidden">(opens in a new tab)</span>
      </a>,
    ]);
  }
  return (
    <Section title="Shipment">
      <Facts items={facts} />
      {unknownCarrier && !maySetCarrier ? (
        <p className="notice shipment-notice">The carrier could not be told from the tracking number, so this shipment is not tracked. An admin or owner can set its carrier.</p>
      ) : null}
    </Section>
  );
}
