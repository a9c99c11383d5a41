// Small parts the pages share: a titled section, and a list of items with their quantities.
import { useId, type ReactNode } from 'react';

export function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={className === undefined ? 'section' : `section ${className}`} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function ItemList({ items }: { items: ReadonlyArray<{ source_id: string; name: string; quantity: number }> }) {
  return (
    <ul className="item-list">
      {items.map((item, index) => (
        <li key={`${item.source_id}-${index}`}>
          <span className="item-name">{item.name}</span>
          <span className="item-quantity">{`× ${item.quantity}`}</span>
        </li>
      ))}
    </ul>
  );
}
