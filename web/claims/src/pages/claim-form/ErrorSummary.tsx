// The problems that stopped the claim, listed above the form: the list takes the focus when it is
// shown, and each problem links to its field, which a link moves the focus to.
import type { MouseEvent, RefObject } from 'react';
import type { Place, Problem } from './useClaimForm';

interface ErrorSummaryProps {
  problems: Problem[];
  summaryRef: RefObject<HTMLElement | null>;
  titleId: string;
  /** Where a field error's link moves to, and what the summary calls it; none for the form as a whole. */
  placeOf: (field: string) => Place | undefined;
}

const goTo = (event: MouseEvent<HTMLAnchorElement>, element: string) => {
  // Not a change of address (the router would take it for a new page): the field takes the focus.
  event.preventDefault();
  const target = document.getElementById(element);
  target?.focus();
  target?.scrollIntoView({ block: 'center' });
};

export function ErrorSummary({ problems, summaryRef, titleId, placeOf }: ErrorSummaryProps) {
  return (
    <section className="error-summary" ref={summaryRef} tabIndex={-1} aria-labelledby={titleId}>
      <h2 id={titleId}>{problems.length === 1 ? 'There is a problem' : `There are ${problems.length} problems`}</h2>
      <ul>
        {problems.map((problem, index) => {
          const place = placeOf(problem.field);
          return (
            <li key={`${problem.field}-${index}`}>
              {place === undefined ? (
                problem.message
              ) : (
                <a href={`#${place.element}`} onClick={(event) => goTo(event, place.element)}>
                  {`${place.label}: ${problem.message}`}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
