// /billing: what the store owes for a calendar month (UTC), read from the premium ledger: the
// statement as GET /v1/billing/statements answers it, its credits by ISO week, the month's claims
// and payouts against the net premium (the loss ratio), and every ledger entry of the month as a
// CSV file.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { z } from 'zod';
import type { BillingStatement } from '../../../../../contract/billing.js';
import { consoleContract } from '../../../../../contract/console/index.js';
import { errorMessage, mayCall, sessionQuery } from '../../api';
import { currentMonth, formatDay, formatMonth, monthDays, shiftDay } from '../../components/calendar';
import { ErrorMessage } from '../../components/ErrorMessage';
import { MonthPicker } from '../../components/MonthPicker';
import { Section } from '../../components/Section';
import { centsOfMajor, formatCents, formatLossRatio } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { statementCsvUrl, statementQuery } from './queries';
import '../../components/compact-table.css';
import './billing.css';

type Statement = z.infer<typeof BillingStatement>;
type CreditWeek = Statement['credits']['weeks'][number];

const route = getRouteApi('/logged-in/billing');

export function BillingPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const { month = currentMonth() } = route.useSearch();
  const statement = useQuery(statementQuery(month));
  const mayDownload = mayCall(consoleContract.billing.csv, session?.user.role ?? 'viewer');

  return (
    <>
      <title>{`Billing · ${formatMonth(month)} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Billing</h1>
        {mayDownload ? (
          <div className="actions">
            {/* The download attribute and the answer's Content-Disposition both make it a file. */}
            <a className="button secondary bill-download" href={statementCsvUrl(month)} download={`statement-${month}.csv`}>
              Download CSV<span className="visually-hidden"> of {formatMonth(month)}</span>
            </a>
          </div>
        ) : null}
      </div>
      <p className="lead">
        What your store owes for a calendar month (UTC). Premiums count on the order&apos;s date, re-pricings on the date of the change, and credits on the date of the
        refund. The CSV lists every entry the statement adds up, in cents.
      </p>
      <MonthPicker month={month} label="Statement month" />

      {statement.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the statement of {formatMonth(month)}…
        </p>
      ) : statement.isError ? (
        <ErrorMessage message={`The statement could not be loaded: ${errorMessage(statement.error)}`} />
      ) : (
        <>
          <StatementSection month={month} statement={statement.data} />
          <CreditWeeksSection month={month} weeks={statement.data.credits.weeks} />
          <ClaimsSection month={month} statement={statement.data} />
        </>
      )}
    </>
  );
}

interface StatementSectionProps {
  month: string;
  statement: Statement;
}

function StatementSection({ month, statement }: StatementSectionProps) {
  const entries = statement.premiums.count + statement.repricings.count + statement.credits.count;
  return (
    <Section title={`Statement of ${formatMonth(month)}`} description="Credits are subtracted: the amounts add up to the net total.">
      <table className="compact-table bill-statement">
        <caption className="visually-hidden">Statement of {formatMonth(month)}, in US dollars</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col" className="number">
              Entries
            </th>
            <th scope="col" className="number">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Premiums booked</th>
            <td className="number">{statement.premiums.count}</td>
            <td className="number">{formatCents(centsOfMajor(statement.premiums.total))}</td>
          </tr>
          <tr>
            <th scope="row">Re-pricings</th>
            <td className="number">{statement.repricings.count}</td>
            <td className="number">{formatCents(centsOfMajor(statement.repricings.total))}</td>
          </tr>
          <tr>
            <th scope="row">Credits (refunds)</th>
            <td className="number">{statement.credits.count}</td>
            <td className="number">{formatCents(-centsOfMajor(statement.credits.total))}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Net total</th>
            <td className="number">{entries}</td>
            <td className="number">{formatCents(centsOfMajor(statement.net_total))}</td>
          </tr>
        </tfoot>
      </table>
    </Section>
  );
}

interface CreditWeeksSectionProps {
  month: string;
  weeks: readonly CreditWeek[];
}

function CreditWeeksSection({ month, weeks }: CreditWeeksSectionProps) {
  const { first, last } = monthDays(month);
  // A week that starts before the month or ends after it counts only its days inside the month.
  const partial = (week: CreditWeek) => week.starts_on < first || shiftDay(week.starts_on, 6) > last;
  return (
    <Section title="Credits by week" description="ISO weeks, Monday to Sunday (UTC), oldest first.">
      {weeks.length === 0 ? (
        <p className="empty-state">No credits in {formatMonth(month)}.</p>
      ) : (
        <table className="compact-table bill-weeks">
          <caption className="visually-hidden">Credits of {formatMonth(month)} by ISO week, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col" className="number">
                Refunds
              </th>
              <th scope="col" className="number">
                Credit
              </th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.week}>
                {/* The Monday under the week rather than in a column of its own: the table fits a phone. */}
                <th scope="row">
                  <span className="bill-week">{week.week}</span>
                  <span className="bill-week-note">
                    Starts on Monday <time dateTime={week.starts_on}>{formatDay(week.starts_on)}</time>
                  </span>
                  {partial(week) ? <span className="bill-week-note">Its days in {formatMonth(month)} only</span> : null}
                </th>
                <td className="number">{week.count}</td>
                <td className="number">{formatCents(centsOfMajor(week.total))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** The month's claims, each counted in the month its event happened, and what was paid out against the net premium. */
function ClaimsSection({ month, statement }: StatementSectionProps) {
  const { claims } = statement;
  const rows: ReadonlyArray<readonly [string, number]> = [
    ['Filed', claims.filed],
    ['Approved (by a person or a rule)', claims.approved],
    ['Denied', claims.denied],
    ['Paid (by payout date)', claims.paid],
  ];
  return (
    <Section title={`Claims of ${formatMonth(month)}`} description="Counted in the month each was filed, approved, denied or paid (UTC). The service records payouts; it moves no money.">
      <table className="compact-table bill-claims">
        <caption className="visually-hidden">Claims of {formatMonth(month)}</caption>
        <thead>
          <tr>
            <th scope="col">Claims</th>
            <th scope="col" className="number">
              Count
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, count]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td className="number">{count}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Paid out</th>
            <td className="number">{formatCents(centsOfMajor(claims.paid_total))}</td>
          </tr>
          <tr>
            <th scope="row">
              Loss ratio
              <span className="bill-week-note">{statement.loss_ratio === null ? 'None: no net premium in the month' : 'Paid out ÷ net total'}</span>
            </th>
            <td className="number">{formatLossRatio(statement.loss_ratio)}</td>
          </tr>
        </tfoot>
      </table>
    </Section>
  );
}
