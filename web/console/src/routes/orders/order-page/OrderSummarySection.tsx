// The order at a glance: its numbers, when it was placed (the order's own date) and registered, its
// status, protection and money.
import { Facts, Section } from '../../../components/Section';
import { centsOfMajor, formatCents, formatDateTime } from '../../../format';
import { orderStatusLabel, type OrderDetail } from '../labels';

const money = (major: number) => formatCents(centsOfMajor(major));
const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

export function OrderSummarySection({ detail }: { detail: OrderDetail }) {
  const { order } = detail;
  return (
    <Section title="Summary">
      <Facts
        items={[
          ['Order number', order.source_order_number],
          ['Service number', <span className="orders-number">{order.order_number}</span>],
          ...(order.source_order_id === order.source_order_number ? [] : ([['Source order id', <span className="orders-number">{order.source_order_id}</span>]] as const)),
          ['Placed', when(order.source_created_on)],
          ['Registered', when(order.created_on)],
          ['Status', orderStatusLabel(order.status)],
          ['Protection', order.insurance_selected ? 'Selected by the shopper' : 'Not selected'],
          ['Order total', order.order_total === null ? <span className="muted">Not sent</span> : money(order.order_total)],
          ['Subtotal', money(order.subtotal)],
          ['Amount covered', money(order.amount_covered)],
          ['Net premium', <strong>{money(order.paid_to_insure)}</strong>],
          ['Last changed', when(order.updated_on)],
          ['Cancelled', order.cancelled_on === null ? 'No' : when(order.cancelled_on)],
          ['Came from', order.platform_id === 'api' ? 'The API' : order.platform_id],
        ]}
      />
    </Section>
  );
}
