// The items ordered, with each line's total in exact cents.
import { Section } from '../../../components/Section';
import { TableScroll } from '../../../components/TableScroll';
import { centsOfMajor, formatCents } from '../../../format';
import type { OrderDetail } from '../labels';

type LineItem = OrderDetail['order']['line_items'][number];

const COVERED_LABEL = { true: 'Yes', false: 'No' } as const;

export function OrderItemsSection({ items }: { items: readonly LineItem[] }) {
  return (
    <Section title="Items" description={`${items.length} ${items.length === 1 ? 'line' : 'lines'}, as the store sent them.`}>
      <TableScroll label="Items ordered">
        <table className="table orders-detail-table">
          <caption className="visually-hidden">Items ordered</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">SKU</th>
              <th scope="col">Unit price</th>
              <th scope="col">Quantity</th>
              <th scope="col">Line total</th>
              <th scope="col">Covered</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => {
              const unitCents = centsOfMajor(item.price);
              return (
                <tr key={item.source_id}>
                  <td data-label="Item">{item.name}</td>
                  <td data-label="SKU">{item.sku === null ? <span className="muted">None</span> : <code>{item.sku}</code>}</td>
                  <td data-label="Unit price" className="orders-money">
                    {formatCents(unitCents)}
                  </td>
                  <td data-label="Quantity" className="orders-money">
                    {item.quantity}
                  </td>
                  <td data-label="Line total" className="orders-money">
                    {formatCents(unitCents * item.quantity)}
                  </td>
                  <td data-label="Covered">{item.is_insured === null ? <span className="muted">Not said</span> : COVERED_LABEL[`${item.is_insured}`]}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </Section>
  );
}
