// The order at a glance: its numbers, status, protection, money and dates.
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
          ['Order number', <span className="orders-number">{order.order_number}</span>],
          ['Number the shopper sees', order.source_order_number],
          ['Status', orderStatusLabel(order.status)],
          ['Protection', order.insurance_selected ? 'Selected by the shopper' : 'Not selected'],
          ['Subtotal', money(order.subtotal)],
          ['Amount covered', money(order.amount_covered)],
          ['Net premium', <strong>{money(order.paid_to_insure)}</strong>],
          ['Order total', order.order_total === null ? <span className="muted">Not sent</span> : money(order.order_total)],
          ['Placed', when(order.source_created_on)],
          ['Registered', when(order.created_on)],
          ['Last changed', when(order.updated_on)],
          ['Cancelled', order.cancelled_on === null ? 'No' : when(order.cancelled_on)],
          ['Came from', order.platform_id === 'api' ? 'The API' : order.platform_id],
        ]}
      />
    </Section>
  );
}
