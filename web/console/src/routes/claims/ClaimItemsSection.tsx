// The items claimed, named and priced from the order's line items. A claim without items is on the
// whole order: every line, in full. Values are unit prices (pre-discount, as the order was sent)
// times units claimed, in integer cents.
import { errorMessage } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { centsOfMajor, formatCents } from '../../format';
import type { Claim, ClaimOrder } from './claims';

type OrderDetail = NonNullable<ClaimOrder['data']>;
type LineItem = OrderDetail['order']['line_items'][number];

interface ClaimedLine {
  sourceId: string;
  claimed: number;
  /** The order's line, or undefined while the order loads or when the order no longer has it. */
  line: LineItem | undefined;
}

function claimedLines(claim: Claim, order: OrderDetail | undefined): ClaimedLine[] {
  const lines = order?.order.line_items ?? [];
  if (claim.items.length === 0) return lines.map((line) => ({ sourceId: line.source_id, claimed: line.quantity, line }));
  return claim.items.map((item) => ({ sourceId: item.source_id, claimed: item.quantity, line: lines.find((line) => line.source_id === item.source_id) }));
}

export function ClaimItemsSection({ claim, order }: { claim: Claim; order: ClaimOrder }) {
  const wholeOrder = claim.items.length === 0;
  const lines = claimedLines(claim, order.data);
  const priced = lines.every((item) => item.line !== undefined);
  const totalCents = lines.reduce((sum, item) => sum + (item.line === undefined ? 0 : centsOfMajor(item.line.price) * item.claimed), 0);

  return (
    <Section title="Items claimed" description="At the order's unit prices, before discounts.">
      {wholeOrder ? <p>The claim is on the whole order: every item, in full.</p> : null}
      {order.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the order&apos;s items…
        </p>
      ) : null}
      <ErrorMessage message={order.isError ? `The order's items could not be loaded: ${errorMessage(order.error)}` : undefined} />
      {lines.length === 0 ? null : (
        <>
          <table className="table claim-items" aria-label="Items claimed">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Claimed</th>
                <th scope="col">Ordered</th>
                <th scope="col">Unit price</th>
                <th scope="col">Value claimed</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((item) => (
                <tr key={item.sourceId}>
                  <td data-label="Item">
                    <span className="claim-item-name">
                      <span>{item.line?.name ?? item.sourceId}</span>
                      <span className="muted claim-item-ref">
                        {item.line === undefined
                          ? order.data
                            ? 'No longer a line item of the order'
                            : null
                          : item.line.sku === null
                            ? `Line ${item.sourceId}`
                            : `SKU ${item.line.sku} · line ${item.sourceId}`}
                      </span>
                    </span>
                  </td>
                  <td data-label="Claimed">{item.claimed}</td>
                  <td data-label="Ordered">{item.line?.quantity ?? '—'}</td>
                  <td data-label="Unit price">{item.line === undefined ? '—' : formatCents(centsOfMajor(item.line.price))}</td>
                  <td data-label="Value claimed">{item.line === undefined ? '—' : formatCents(centsOfMajor(item.line.price) * item.claimed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {order.data ? (
            <p className="claim-total">
              {priced ? 'Total value claimed: ' : 'Total value claimed, of the items the order still lists: '}
              <strong>{formatCents(totalCents)}</strong>
            </p>
          ) : null}
        </>
      )}
    </Section>
  );
}
