// The store's pricing terms: the operator sets them, so the page only reads them. (How an order's
// prices are read, tax included or not, is no setting: each order says it; docs/console.md.)
import type { ReactNode } from 'react';
import { Facts } from '../../components/Section';
import { formatCents } from '../../format';
import type { Settings } from './queries';
import { SETTINGS_PARTS, SettingsSection } from './SettingsSection';
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
    <SettingsSection part={SETTINGS_PARTS.pricing} description="Agreed with your operator, who sets them. Ask them for a change.">
      <Facts
        items={[
          ['Rate', term(formatRateBps(pricing.rate_bps), 'Of the covered amount.')],
          ['Minimum premium', term(formatCents(pricing.min_premium_cents), 'The least a protected order pays.')],
          ['Maximum covered', term(pricing.max_covered_cents === null ? 'No limit' : formatCents(pricing.max_covered_cents), "The most an order's protection covers.")],
          ['Personal-data retention', term(`${days} ${days === 1 ? 'day' : 'days'}`, "How long an order's personal data is kept after its last activity.")],
        ]}
      />
    </SettingsSection>
  );
}
