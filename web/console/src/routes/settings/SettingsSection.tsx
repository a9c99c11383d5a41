// The settings page's parts, in the order a merchant uses them: each one a card like
// components/Section.tsx's, whose heading has a fixed id, so the page's "On this page" list (and a
// link from elsewhere, e.g. /console/settings#users) can lead to it.
import type { ReactNode } from 'react';
import '../../components/Section.css';

/** The page's parts, top to bottom: their headings' ids and titles. */
export const SETTINGS_PARTS = {
  claimPage: { id: 'claim-page', title: 'Claim page' },
  users: { id: 'users', title: 'Users' },
  integration: { id: 'integration', title: 'Integration' },
  pricing: { id: 'pricing', title: 'Pricing' },
} as const;

export type SettingsPart = (typeof SETTINGS_PARTS)[keyof typeof SETTINGS_PARTS];

interface SettingsSectionProps {
  part: SettingsPart;
  /** A short line under the title: what the part holds. */
  description?: string;
  children: ReactNode;
}

export function SettingsSection({ part, description, children }: SettingsSectionProps) {
  return (
    <section className="section-card settings-part" aria-labelledby={part.id}>
      <header className="section-card-header">
        {/* Focusable by script only: a link to the part moves the keyboard here. */}
        <h2 id={part.id} tabIndex={-1}>
          {part.title}
        </h2>
        {description === undefined ? null : <p className="section-card-description">{description}</p>}
      </header>
      <div className="section-card-body">{children}</div>
    </section>
  );
}

/** The list of the page's parts, as links to their headings. */
export function OnThisPage({ parts }: { parts: readonly SettingsPart[] }) {
  return (
    <nav className="settings-toc" aria-labelledby="settings-toc-title">
      <h2 id="settings-toc-title" className="settings-toc-title">
        On this page
      </h2>
      <ul>
        {parts.map((part) => (
          <li key={part.id}>
            <a href={`#${part.id}`}>{part.title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
