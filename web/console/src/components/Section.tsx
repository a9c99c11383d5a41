// A titled part of a detail page (an order's items, its ledger...), as Medusa's admin builds its
// pages: a card whose h2 names it for the page outline and for screen readers' region lists.
import { useId, type ReactNode } from 'react';
import './Section.css';

interface SectionProps {
  title: string;
  /** A short line under the title: what the section holds, or in which order. */
  description?: string;
  children: ReactNode;
}

export function Section({ title, description, children }: SectionProps) {
  const id = useId();
  return (
    <section className="section-card" aria-labelledby={`${id}-title`}>
      <header className="section-card-header">
        <h2 id={`${id}-title`}>{title}</h2>
        {description === undefined ? null : <p className="section-card-description">{description}</p>}
      </header>
      <div className="section-card-body">{children}</div>
    </section>
  );
}

interface FactsProps {
  /** Label and value pairs, in order; a value may be any content. */
  items: ReadonlyArray<readonly [label: string, value: ReactNode]>;
}

/** Labelled values as a description list: two columns where there is room, stacked on a phone. */
export function Facts({ items }: FactsProps) {
  return (
    <dl className="section-facts">
      {items.map(([label, value]) => (
        <div className="section-fact" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
