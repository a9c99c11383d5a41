// Whether the service still holds the shopper's personal data for this order. Once erased, the page
// says so rather than showing empty names.
import type { z } from 'zod';
import type { OrderResponse } from '../../../../../../contract/orders.js';
import { Facts, Section } from '../../../components/Section';

export function OrderPersonalDataSection({ order }: { order: z.infer<typeof OrderResponse> }) {
  if (!order.has_pii) {
    return (
      <Section title="Shopper">
        <p className="warning">
          <strong>The shopper&apos;s personal data was erased.</strong> Their name, email, phone and addresses are no longer held for this order. Its
          amounts, items, shipments, claims and premium ledger are kept.
        </p>
      </Section>
    );
  }
  const name = [order.first_name, order.last_name].filter((part) => part !== null && part !== '').join(' ');
  return (
    <Section title="Shopper">
      <Facts
        items={[
          ['Name', name === '' ? <span className="muted">Not given</span> : name],
          ['Personal data', 'Held'],
        ]}
      />
      <p className="muted orders-erase-hint">
        If the shopper asks, erase it through the API: <code className="orders-code">POST /v2/orders/{'{source_order_id}'}/redact</code>.
      </p>
    </Section>
  );
}
