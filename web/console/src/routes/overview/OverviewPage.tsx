// /overview: the store's month at a glance, the console's home page. The money is the month's
// billing statement itself (the same figures as the Billing page and GET /v1/billing/statements,
// to the cent), with the month's claims and what they paid out against it (the loss ratio); then
// the month's orders and their protection attach rate, the claims open now, and the last 90 days
// of net premium.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { errorMessage, sessionQuery } from '../../api';
import { currentMonth, formatMonth } from '../../components/calendar';
import { ErrorMessage } from '../../components/ErrorMessage';
import { MonthPicker } from '../../components/MonthPicker';
import { Section } from '../../components/Section';
import { centsOfMajor, formatCents, formatLossRatio } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { DailyNetFigure } from './DailyNetFigure';
import { overviewQuery, type Overview } from './queries';
import './overview.css';

const route = getRouteApi('/logged-in/overview');

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** "1 refund", "3 refunds". */
const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export function OverviewPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const { month = currentMonth() } = route.useSearch();
  const overview = useQuery(overviewQuery(month));

  return (
    <>
      <title>{`Overview · ${formatMonth(month)} · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Overview</h1>
      </div>
      <MonthPicker month={month} label="Month shown" />

      {overview.isPending ? (
        <p className="muted" aria-live="polite">
          Loading {formatMonth(month)}…
        </p>
      ) : overview.isError ? (
        <ErrorMessage message={`The overview could not be loaded: ${errorMessage(overview.error)}`} />
      ) : (
        <>
          <PremiumSection month={month} statement={overview.data.statement} />
          <MonthClaimsSection month={month} statement={overview.data.statement} />
          <OrdersSection month={month} orders={overview.data.orders} openClaims={overview.data.open_claims} />
          <Section title="Daily net premium" description="The last 90 days up to today (UTC), whatever the month shown above.">
            <DailyNetFigure days={overview.data.daily_net_cents} />
          </Section>
        </>
      )}
    </>
  );
}

interface StatProps {
  label: string;
  value: ReactNode;
  detail: ReactNode;
  /** The figure the others add up to. */
  total?: boolean;
}

/** One figure of a stat grid: a card with its label, its value large, and a line saying what it counts. */
function Stat({ label, value, detail, total = false }: StatProps) {
  return (
    <div className={total ? 'ov-stat ov-stat-total' : 'ov-stat'}>
      <dt>{label}</dt>
      <dd className="ov-stat-value">{value}</dd>
      <dd className="ov-stat-detail">{detail}</dd>
    </div>
  );
}

function PremiumSection({ month, statement }: { month: string; statement: Overview['statement'] }) {
  return (
    <Section title={`Premium in ${formatMonth(month)}`} description="The month's billing statement (UTC).">
      <dl className="ov-stats">
        <Stat label="Booked premium" value={formatCents(centsOfMajor(statement.premiums.total))} detail={counted(statement.premiums.count, 'order booked', 'orders booked')} />
        <Stat label="Re-pricings" value={formatCents(centsOfMajor(statement.repricings.total))} detail={counted(statement.repricings.count, 're-pricing')} />
        <Stat label="Credits" value={formatCents(centsOfMajor(statement.credits.total))} detail={`${counted(statement.credits.count, 'refund')}, subtracted`} />
        <Stat label="Net premium" value={formatCents(centsOfMajor(statement.net_total))} detail="Booked + re-pricings − credits" total />
      </dl>
      <p className="ov-more">
        <Link to="/billing" search={{ month }}>
          The statement of {formatMonth(month)}, its weekly credits and CSV
        </Link>
      </p>
    </Section>
  );
}

/** The month's claims as the statement counts them (each in the month its event happened), and the loss ratio. */
function MonthClaimsSection({ month, statement }: { month: string; statement: Overview['statement'] }) {
  const { claims } = statement;
  return (
    <Section title={`Claims in ${formatMonth(month)}`} description="Each claim counts in the month it was filed, approved, denied or paid (UTC).">
      <dl className="ov-stats">
        <Stat label="Filed" value={claims.filed} detail="New in the month" />
        <Stat label="Approved" value={claims.approved} detail="By a person or a rule" />
        <Stat label="Denied" value={claims.denied} detail="By a person or a rule" />
        <Stat label="Paid" value={claims.paid} detail="By their payout date" />
        <Stat label="Paid out" value={formatCents(centsOfMajor(claims.paid_total))} detail={`The payouts of ${counted(claims.paid, 'claim')}`} />
        <Stat
          label="Loss ratio"
          value={formatLossRatio(statement.loss_ratio)}
          detail={statement.loss_ratio === null ? 'No net premium in the month' : 'Paid out ÷ net premium'}
          total
        />
      </dl>
      <p className="ov-more">
        <Link to="/claims">The claims queue</Link>
      </p>
    </Section>
  );
}

interface OrdersSectionProps {
  month: string;
  orders: Overview['orders'];
  openClaims: number;
}

function OrdersSection({ month, orders, openClaims }: OrdersSectionProps) {
  return (
    <Section title="Orders and claims" description={`Orders placed in ${formatMonth(month)} (UTC); claims open now, whatever their month.`}>
      <dl className="ov-stats">
        <Stat label="Orders" value={orders.count} detail="Placed in the month" />
        <Stat
          label="Protection attach rate"
          value={percent.format(orders.attach_rate)}
          detail={orders.count === 0 ? 'No orders in the month' : `${orders.protected} of ${counted(orders.count, 'order')} protected`}
        />
        <Stat
          label="Open claims"
          value={
            <Link to="/claims">
              {openClaims}
              <span className="visually-hidden"> open {openClaims === 1 ? 'claim' : 'claims'}: see the claims</span>
            </Link>
          }
          detail="Waiting for a decision"
        />
      </dl>
    </Section>
  );
}
