// The last 90 days of net premium: a chart for the eye, and for everyone a caption that sums it up
// and the same numbers as a table (behind "Show as table", reachable and scrollable by keyboard).
import { lazy, Suspense } from 'react';
import { formatDay } from '../../components/calendar';
import { formatCents } from '../../format';
import type { DailyNet } from './queries';
import '../../components/compact-table.css';

// uPlot is loaded with the chart, not with the app: the first load stays small.
const DailyNetChart = lazy(() => import('./DailyNetChart'));

interface DailyNetFigureProps {
  days: readonly DailyNet[];
}

/** One sentence with what a reader of the chart would take from it. */
function summary(days: readonly DailyNet[]): string {
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return 'No days to show.';
  const total = days.reduce((sum, day) => sum + day.net_cents, 0);
  const active = days.filter((day) => day.net_cents !== 0);
  const span = `From ${formatDay(first.day)} to ${formatDay(last.day)}`;
  const highest = active.reduce<DailyNet | undefined>((best, day) => (best === undefined || day.net_cents > best.net_cents ? day : best), undefined);
  if (highest === undefined) return `${span}: no premium booked, re-priced or credited.`;
  const activeDays = active.length === 1 ? '1 day' : `${active.length} days`;
  return `${span}: ${formatCents(total)} net premium in all, over ${activeDays} with entries. The highest day was ${formatDay(highest.day)}, at ${formatCents(highest.net_cents)}.`;
}

export function DailyNetFigure({ days }: DailyNetFigureProps) {
  return (
    <figure className="ov-figure">
      <figcaption className="ov-figure-caption">
        {summary(days)}
      </figcaption>
      {/* Hidden from screen readers: a canvas says nothing, and the table below says it all. */}
      <div className="ov-chart" aria-hidden="true">
        <Suspense fallback={<p className="ov-chart-loading muted">Loading the chart…</p>}>
          <DailyNetChart days={days} />
        </Suspense>
      </div>
      <details className="ov-figure-table">
        <summary>Show as table</summary>
        {/* A long table scrolls inside its frame; the frame takes focus so the keyboard can scroll it. */}
        <div className="compact-table-scroll" role="region" tabIndex={0} aria-label="Daily net premium, by day">
          <table className="compact-table">
            <caption className="visually-hidden">Daily net premium, by day (UTC), oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="number">
                  Net premium
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.day}>
                  <th scope="row">
                    <time dateTime={day.day}>{formatDay(day.day)}</time>
                  </th>
                  <td className="number">{formatCents(day.net_cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
