// Previous and next month, as links that put the month in the page's URL (?month=YYYY-MM): the
// month survives a reload, Back returns to the last one, and a month can be shared as an address.
import { Link } from '@tanstack/react-router';
import { formatMonth, shiftMonth } from './calendar';
import './MonthPicker.css';

interface MonthPickerProps {
  month: string;
  /** What the months are of, for the group's name: "Statement month". */
  label: string;
}

export function MonthPicker({ month, label }: MonthPickerProps) {
  const previous = shiftMonth(month, -1);
  const next = shiftMonth(month, 1);
  return (
    <nav className="month-picker" aria-label={label}>
      {/* The links' names say which month they lead to; on a phone their text is shorter. */}
      {previous === null ? null : (
        <Link to="." search={{ month: previous }} className="button secondary small month-step" aria-label={`Previous month, ${formatMonth(previous)}`}>
          <span aria-hidden="true">‹</span> Previous<span className="month-step-word"> month</span>
        </Link>
      )}
      {/* Announced when it changes: focus stays on the link that was followed. */}
      <p className="month-picker-label" aria-live="polite">
        {formatMonth(month)}
      </p>
      {next === null ? null : (
        <Link to="." search={{ month: next }} className="button secondary small month-step" aria-label={`Next month, ${formatMonth(next)}`}>
          Next<span className="month-step-word"> month</span> <span aria-hidden="true">›</span>
        </Link>
      )}
    </nav>
  );
}
