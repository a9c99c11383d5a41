// The store's pricing terms (the operator sets them; read only here), and the note on price basis,
// which is no setting: each order push declares it.
import type { ReactNode } from 'react';
import { Facts, Section } from '../../components/Section';
import { formatCents } from '../../format';
import type { Settings } from './queries';
import { formatRateBps } from './wording';

/** A term's figure, large, and what it means under it. */
const term = (figure: string, meaning: string): ReactNode => (
  <>
    <span className="settings-figure">{figure}</span>
    <p className="settings-hint">{meaning}</p>
  </>
);

export function PricingSection({ settings }: { settings: Settings }) {
  const { pricing } = settings;
  const days = settings.personal_data_retention_days;
  return (
    <Section title="Pricing terms" description="Agreed with your operator, who sets them. Ask them for a change.">
      <Facts
        items={[
          ['Rate', term(formatRateBps(pricing.rate_bps), 'Of the covered amount.')],
          ['Minimum premium', term(formatCents(pricing.min_premium_cents), 'The least a protected order pays.')],
          ['Maximum covered', term(pricing.max_covered_cents === null ? 'No limit' : formatCents(pricing.max_covered_cents), "The most an order's protection covers.")],
          ['Personal-data retention', term(`${days} ${days === 1 ? 'day' : 'days'}`, "How long an order's personal data is kept after its last activity.")],
        ]}
      />
    </Section>
  );
}

export function PriceBasisNote() {
  return (
    <Section title="Price basis">
      <p>
        Not a setting: each order push declares it. <code>price_basis</code> says whether the line prices are <code>pre_tax</code> (when absent) or{' '}
        <code>tax_inclusive</code>, and <code>tax_cents</code> gives the tax they include. A tax-inclusive sender that does not say so fails every cart-swap check: its
        quotes are dropped and its premium is priced from its own figure.
      </p>
    </Section>
  );
}
