// The premium ledger: every booking, re-pricing and reversal of this order's premium, oldest first,
// each with its signed amount and the day it counts for in billing; their sum is the net premium.
import { Section } from '../../../components/Section';
import { TableScroll } from '../../../components/TableScroll';
import { formatDay } from '../../../components/calendar';
import { formatCents, formatDateTime } from '../../../format';
import { LEDGER_REASON_LABEL, type LedgerEntry } from '../labels';

/** A signed amount: a charge carries "+", a reversal formatCents' "-". */
const signed = (cents: number) => (cents > 0 ? `+${formatCents(cents)}` : formatCents(cents));

export function OrderLedgerSection({ ledger }: { ledger: readonly LedgerEntry[] }) {
  const netCents = ledger.reduce((sum, entry) => sum + entry.amount_cents, 0);
  return (
    <Section title="Premium ledger" description="Every change to the premium, oldest first. The entries add up to the net premium.">
      {ledger.length === 0 ? (
        <p className="muted">No premium was booked for this order.</p>
      ) : (
        <>
          <TableScroll label="Premium ledger entries">
            <table className="table orders-detail-table">
              <caption className="visually-hidden">Premium ledger, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">Entry</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Counts for</th>
                  <th scope="col">Recorded</th>
                  <th scope="col">Refund</th>
                </tr>
              </thead>
              <tbody>
                {ledger.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label="Entry">{LEDGER_REASON_LABEL[entry.reason]}</td>
                    <td data-label="Amount" className={`orders-money ${entry.amount_cents < 0 ? 'orders-negative' : ''}`}>
                      {signed(entry.amount_cents)}
                    </td>
                    {/* Billing counts an entry on its UTC day, whatever the reader's time zone. */}
                    <td data-label="Counts for">
                      <time dateTime={entry.effective_at}>{formatDay(entry.effective_at.slice(0, 10))}</time>
                    </td>
                    <td data-label="Recorded">
                      <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
                    </td>
                    <td data-label="Refund">{entry.refund_id === null ? <span className="muted">None</span> : <code className="orders-code">{entry.refund_id}</code>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <p className="orders-net">
            Net premium <strong className="orders-money">{formatCents(netCents)}</strong>
          </p>
        </>
      )}
    </Section>
  );
}
