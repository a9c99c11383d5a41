// The store's claim page, where its shoppers file claims themselves: its address, and what it shows
// them. Admins and owners change its accent colour, support contacts and claim windows (one PATCH of
// the settings; the server judges every value and names the field it refuses) and its logo (the
// image itself as the body of a PUT, which the typed client cannot send); viewers read them.
// The form, the viewers' read-only facts and the logo form are in ClaimPage*.tsx beside this file.
import { useId } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { ClaimPageReadOnly } from './ClaimPageFacts';
import { ClaimPageForm } from './ClaimPageForm';
import { LogoForm } from './ClaimPageLogoForm';
import type { Settings } from './queries';
import { SETTINGS_PARTS, SettingsSection } from './SettingsSection';

interface ClaimPageSectionProps {
  settings: Settings;
  /** May change the colour, contacts and windows (PATCH settings). */
  mayEdit: boolean;
  /** May upload and remove the logo. */
  mayChangeLogo: boolean;
}

export function ClaimPageSection({ settings, mayEdit, mayChangeLogo }: ClaimPageSectionProps) {
  const claimPage = settings.claim_page;
  return (
    <SettingsSection part={SETTINGS_PARTS.claimPage} description="Where your shoppers file claims themselves: how it looks, how they reach you, and when they may file.">
      <PublicAddress urlPath={claimPage.url_path} />
      {mayEdit ? <ClaimPageForm claimPage={claimPage} /> : <ClaimPageReadOnly claimPage={claimPage} />}
      {mayChangeLogo ? <LogoForm logoUrl={claimPage.logo_url} /> : null}
    </SettingsSection>
  );
}

/** The page's address, to open or to copy into the store's emails and help pages. */
function PublicAddress({ urlPath }: { urlPath: string }) {
  const id = useId();
  const address = new URL(urlPath, window.location.origin).href;
  return (
    <div className="settings-claim-address">
      <p>
        Shoppers find their order there by its number and email, and file a claim. Link to it from your order emails and help pages:
      </p>
      <p className="settings-claim-link">
        <a href={urlPath} target="_blank" rel="noreferrer">
          <span id={`${id}-address`}>{address}</span>
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
      <CopyButton text={address} targetId={`${id}-address`} what="the claim page's address" />
    </div>
  );
}
