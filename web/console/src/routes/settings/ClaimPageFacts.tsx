// The claim page's settings as a viewer reads them (no form: only admins and owners change them):
// the accent colour beside a swatch of it, the logo, the support contacts and the claim windows.
import type { ReactNode } from 'react';
import { Facts } from '../../components/Section';
import type { ClaimPage } from './claim-page-draft';
import { LogoPreview } from './ClaimPageLogoForm';
import { AFTER_DELIVERY_WINDOW_EXPLANATION, days, LOST_WINDOW_EXPLANATION } from './wording';

/** A colour as a small square beside its value: an SVG fill, not a style attribute (the CSP allows none). */
function Swatch({ color }: { color: string }) {
  return (
    <svg className="settings-swatch" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="0.5" y="0.5" width="15" height="15" rx="3" fill={color} />
    </svg>
  );
}

/** A window's figure, large, and what it means under it. */
const windowFact = (count: number, meaning: string): ReactNode => (
  <>
    <span className="settings-figure">{days(count)}</span>
    <p className="settings-hint">{meaning}</p>
  </>
);

const orNone = (value: string | null, shown: (value: string) => ReactNode) => (value === null ? <span className="muted">None</span> : shown(value));

export function ClaimPageReadOnly({ claimPage }: { claimPage: ClaimPage }) {
  return (
    <Facts
      items={[
        [
          'Accent colour',
          claimPage.accent_color === null ? (
            <span className="muted">The claim page&apos;s default</span>
          ) : (
            <span className="settings-color-value">
              <Swatch color={claimPage.accent_color} />
              <code>{claimPage.accent_color}</code>
            </span>
          ),
        ],
        ['Logo', <LogoPreview logoUrl={claimPage.logo_url} />],
        ['Support e-mail', orNone(claimPage.support_email, (email) => <span className="settings-email">{email}</span>)],
        [
          'Support URL',
          orNone(claimPage.support_url, (url) => (
            <a href={url} target="_blank" rel="noreferrer" className="settings-email">
              {url}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          )),
        ],
        ['Lost parcels', windowFact(claimPage.lost_after_days, LOST_WINDOW_EXPLANATION)],
        ['Damage, missing items, theft', windowFact(claimPage.after_delivery_days, AFTER_DELIVERY_WINDOW_EXPLANATION)],
      ]}
    />
  );
}
