// The platform's refunds of the order: what was refunded, how much of it was the protection, and
// how much premium that reversed.
import { Section } from '../../../components/Section';
import { TableScroll } from '../../../components/TableScroll';
import { formatCents, formatDateTime } from '../../../format';
import type { OrderDetail } from '../labels';

type Refund = OrderDetail['refunds'][number];

export function OrderRefundsSection({ refunds }: { refunds: readonly Refund[] }) {
  return (
    <Section title="Refunds">
      {refunds.length === 0 ? (
        <p className="muted">No refunds.</p>
      ) : (
        <TableScroll label="Refunds of the order">
          <table className="table orders-detail-table">
            <caption className="visually-hidden">Refunds of the order, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Refund</th>
                <th scope="col">Refunded</th>
                <th scope="col">Of which protection</th>
                <th scope="col">Premium reversed</th>
                <th scope="col">Date</th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((refund) => (
                <tr key={refund.refund_id}>
                  <td data-label="Refund">
                    <code className="orders-code">{refund.refund_id}</code>
                  </td>
                  <td data-label="Refunded" className="orders-money">
                    {refund.amount_cents === null ? <span className="muted">Not stated</span> : formatCents(refund.amount_cents)}
                  </td>
                  <td data-label="Of which protection" className="orders-money">
                    {formatCents(refund.protection_refunded_cents)}
                  </td>
                  <td data-label="Premium reversed" className="orders-money">
                    {formatCents(refund.reversed_cents)}
                  </td>
                  <td data-label="Date">
                    {/* The platform's date of the refund; without one, when the service heard of it. */}
                    {refund.refunded_at === null ? (
                      <span>
                        <time dateTime={refund.received_at}>{formatDateTime(refund.received_at)}</time> <span className="muted">(received)</span>
                      </span>
                    ) : (
                      <time dateTime={refund.refunded_at}>{formatDateTime(refund.refunded_at)}</time>
                    )}
                  </td>
                  <td data-label="Note">{refund.note === null ? <span className="muted">None</span> : refund.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}
