// /shipments/$trackingNumber: a shipment, its order, its tracking timeline (carrier scans and the
// service's notes, newest first), and, for an admin or owner, setting the carrier of one whose
// carrier is not known. The tracking number travels encoded in every URL (links and API calls).
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { consoleContract } from '../../../../../contract/console/index.js';
import { ApiError, errorMessage, mayCall, sessionQuery } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { PRODUCT_NAME } from '../../navigation';
import { courierLabel, UNKNOWN_COURIER } from './labels';
import { shipmentQuery } from './queries';
import { SetCarrierSection } from './SetCarrierSection';
import { ShipmentSummarySection } from './ShipmentSummarySection';
import { TrackingTimelineSection } from './TrackingTimelineSection';
// The orders area's back link, ids and link-buttons look the same here.
import '../orders/orders.css';
import './shipments.css';

const route = getRouteApi('/logged-in/shipments/$trackingNumber');

export function ShipmentPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const { trackingNumber } = route.useParams();
  const shipment = useQuery(shipmentQuery(trackingNumber));
  // Which shipment's carrier was just set, and to what: the page stays mounted from one shipment to another.
  const [justSet, setJustSet] = useState<{ trackingNumber: string; courier: string } | null>(null);
  const carrierSet = justSet !== null && justSet.trackingNumber === trackingNumber ? justSet.courier : null;
  const doneRef = useRef<HTMLParagraphElement>(null);
  // The form goes away with the unknown carrier: the focus goes to what happened.
  useEffect(() => {
    if (carrierSet !== null) doneRef.current?.focus();
  }, [carrierSet]);

  const missing = shipment.error instanceof ApiError && shipment.error.status === 404;
  const maySetCarrier = mayCall(consoleContract.shipments.setCarrier, session?.user.role ?? 'viewer');
  const orderId = shipment.data?.order.source_order_id ?? null;

  return (
    <>
      <title>{`${missing ? 'No such shipment' : `Shipment ${trackingNumber}`} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <p className="orders-back">
        {orderId === null ? (
          <Link to="/orders">All orders</Link>
        ) : (
          <Link to="/orders/$sourceOrderId" params={{ sourceOrderId: orderId }}>
            Order {orderId}
          </Link>
        )}
      </p>
      <div className="page-header">
        <h1 className="shipment-title">{missing ? 'No such shipment' : `Shipment ${trackingNumber}`}</h1>
      </div>
      <p className={carrierSet === null ? 'shipment-done empty' : 'shipment-done'} role="status" ref={doneRef} tabIndex={-1}>
        {carrierSet === null ? null : `The carrier is now ${courierLabel(carrierSet)}. The shipment is tracked from its next poll.`}
      </p>

      {shipment.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the shipment…
        </p>
      ) : missing ? (
        <div className="empty-state">
          <p>
            Your store has no shipment with the tracking number <strong className="orders-id">“{trackingNumber}”</strong>.
          </p>
          <Link to="/orders" className="button secondary orders-button-link">
            Search orders
          </Link>
        </div>
      ) : shipment.isError ? (
        <ErrorMessage message={`The shipment could not be loaded: ${errorMessage(shipment.error)}`} />
      ) : (
        <>
          <ShipmentSummarySection shipment={shipment.data.shipment} order={shipment.data.order} maySetCarrier={maySetCarrier} />
          {shipment.data.shipment.courier === UNKNOWN_COURIER && maySetCarrier ? (
            <SetCarrierSection
              // A form of its own per shipment: nothing typed for one is offered for another.
              key={shipment.data.shipment.tracking_number}
              trackingNumber={shipment.data.shipment.tracking_number}
              onSet={(updated) => setJustSet({ trackingNumber, courier: updated.shipment.courier })}
            />
          ) : null}
          <TrackingTimelineSection shipment={shipment.data.shipment} />
        </>
      )}
    </>
  );
}
