// "Try on past claims": the rules as they stand in the editor (saved or not), run over the store's
// claims filed since a day (90 days ago unless changed, a year at most), changing nothing. The
// results say what they would have decided, rule by rule, and where a person decided otherwise.
import { useId, useRef, useState } from 'react';
import { MAX_DRY_RUN_DAYS } from '../../../../../contract/claim-rules.js';
import { Field } from '../../../../shared/Field';
import { localDay } from '../../components/calendar';
import { Section } from '../../components/Section';
import { DryRunResults } from './DryRunResults';
import type { DryRun } from './queries';

const DEFAULT_DAYS = 90;

function daysAgo(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() - days);
  return localDay(date);
}

/** The start of a calendar day in the user's time zone, as the instant the API takes; null for no day. */
function startOf(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match === null ? null : new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toISOString();
}

interface DryRunSectionProps {
  pending: boolean;
  result: DryRun | undefined;
  /** The rules changed since the results were made. */
  stale: boolean;
  /** The server's word on the day, if it refused it. */
  sinceError: string | undefined;
  onRun: (since: string) => void;
}

export function DryRunSection({ pending, result, stale, sinceError, onRun }: DryRunSectionProps) {
  const id = useId();
  const [since, setSince] = useState(() => daysAgo(DEFAULT_DAYS));
  const [localError, setLocalError] = useState<string | undefined>();
  const inputRef = useRef<HTMLDivElement>(null);
  const error = localError ?? sinceError;

  const run = () => {
    const instant = startOf(since);
    if (instant === null) {
      setLocalError('Must be a day, such as the one 90 days ago.');
      inputRef.current?.querySelector('input')?.focus();
      return;
    }
    setLocalError(undefined);
    onRun(instant);
  };

  return (
    <Section title="Try on past claims" description="What the rules above, as they are now in the editor, would have done to your claims. Nothing is changed, and nothing needs saving first.">
      <div className="rules-dry-run-form" ref={inputRef}>
        <Field
          id={`${id}-since`}
          label="Claims filed since"
          hint={`At most ${MAX_DRY_RUN_DAYS} days back.`}
          type="date"
          min={daysAgo(MAX_DRY_RUN_DAYS - 1)}
          max={localDay()}
          value={since}
          onChange={(event) => {
            setSince(event.target.value);
            setLocalError(undefined);
          }}
          error={error}
        />
        <button type="button" className="button primary" onClick={run} aria-disabled={pending}>
          {pending ? 'Trying…' : 'Try on past claims'}
        </button>
      </div>
      {/* A short line is announced; the figures and tables under it are read at will. */}
      <p className="rules-dry-run-status" role="status">
        {result === undefined ? '' : `Tried on ${result.considered} ${result.considered === 1 ? 'claim' : 'claims'}.`}
      </p>
      {result === undefined ? null : (
        <>
          {stale ? <p className="warning">You have changed the rules since this run: try them again to see what they would do now.</p> : null}
          <DryRunResults result={result} />
        </>
      )}
    </Section>
  );
}
