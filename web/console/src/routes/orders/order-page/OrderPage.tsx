// /orders/$sourceOrderId: one order and everything that happened to it, in sections (as Medusa's
// order page): the summary, the shopper (their contact, and the owner's erasure), the items, the
// premium ledger, the shipments, the claims and the refunds. An order the store does not have is a
// page of its own.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { consoleContract } from '../../../../../../contract/console/index.js';
import { ApiError, errorMessage, mayCall, sessionQuery } from '../../../api';
import { ErrorMessage } from '../../../components/ErrorMessage';
import { PRODUCT_NAME } from '../../../navigation';
import { orderStatusLabel, protectionLabel } from '../labels';
import { orderQuery } from '../queries';
import { OrderClaimsSection } from './OrderClaimsSection';
import { OrderItemsSection } from './OrderItemsSection';
import { OrderLedgerSection } from './OrderLedgerSection';
import { OrderPersonalDataSection } from './OrderPersonalDataSection';
import { OrderRefundsSection } from './OrderRefundsSection';
import { OrderShipmentsSection } from './OrderShipmentsSection';
import { OrderSummarySection } from './OrderSummarySection';
import '../orders.css';

const route = getRouteApi('/logged-in/orders/$sourceOrderId');

export function OrderPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const { sourceOrderId } = route.useParams();
  const detail = useQuery(orderQuery(sourceOrderId));
  const missing = detail.error instanceof ApiError && detail.error.status === 404;
  const storeName = session?.store.name ?? '';
  const role = session?.user.role ?? 'viewer';
  // The server sends the shopper's contact to the roles that decide claims, and lets owners erase.
  const seesContact = mayCall(consoleContract.claims.setStatus, role);
  const mayErase = mayCall(consoleContract.orders.redact, role);

  return (
    <>
      <title>{`${missing ? 'No such order' : `Order ${sourceOrderId}`} · ${storeName} · ${PRODUCT_NAME}`}</title>
      <p className="orders-back">
        <Link to="/orders">All orders</Link>
      </p>
      <div className="page-header">
        {/* One heading whose words change: the layout focused it when the page opened. */}
        <h1 className="orders-title">{missing ? 'No such order' : `Order ${sourceOrderId}`}</h1>
        {detail.isSuccess ? (
          <div className="orders-header-badges">
            <span className={`orders-status orders-status-${detail.data.order.status === 'cancelled' ? 'cancelled' : 'active'}`}>
              {orderStatusLabel(detail.data.order.status)}
            </span>
            <span className={`orders-protection ${detail.data.order.insurance_selected ? 'orders-protection-yes' : 'orders-protection-no'}`}>
              {protectionLabel(detail.data.order.insurance_selected)}
            </span>
          </div>
        ) : null}
      </div>

      {detail.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the order…
        </p>
      ) : missing ? (
        <div className="empty-state orders-missing">
          <p>
            Your store has no order with the source order id <strong className="orders-id">“{sourceOrderId}”</strong>.
          </p>
          <p>Check the id, or find the order by its number or the shopper&apos;s email.</p>
          <Link to="/orders" className="button secondary orders-button-link">
            Search orders
          </Link>
        </div>
      ) : detail.isError ? (
        <ErrorMessage message={`The order could not be loaded: ${errorMessage(detail.error)}`} />
      ) : (
        <>
          <OrderSummarySection detail={detail.data} />
          <OrderPersonalDataSection detail={detail.data} seesContact={seesContact} mayErase={mayErase} />
          <OrderItemsSection items={detail.data.order.line_items} />
          <OrderLedgerSection ledger={detail.data.ledger} />
          <OrderShipmentsSection shipments={detail.data.shipments} />
          <OrderClaimsSection claims={detail.data.claims} />
          <OrderRefundsSection refunds={detail.data.refunds} />
        </>
      )}
    </>
  );
}
