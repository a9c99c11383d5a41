// /settings: one page in the order a merchant uses it. First the claim page, where shoppers file
// claims, and its look; then, for owners only, the users; then the integration: what the service
// reads from the store's orders and quotes, and the pricing terms the operator set. An "On this
// page" list leads to each part's heading. Admins and owners change the claim page and the
// integration; viewers read them.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { consoleContract } from '../../../../../contract/console/index.js';
import { errorMessage, mayCall, sessionQuery } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { PRODUCT_NAME } from '../../navigation';
import { ClaimPageSection } from './ClaimPageSection';
import { DeclarationsSection } from './DeclarationsSection';
import { PricingSection } from './PricingSection';
import { settingsQuery } from './queries';
import { OnThisPage, SETTINGS_PARTS } from './SettingsSection';
import { UsersSection } from './UsersSection';
import './settings.css';

export function SettingsPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const settings = useQuery(settingsQuery);
  const role = session?.user.role ?? 'viewer';
  const mayEdit = mayCall(consoleContract.settings.update, role);
  const mayChangeLogo = mayCall(consoleContract.settings.setLogo, role) && mayCall(consoleContract.settings.removeLogo, role);
  // Admins and viewers are refused the users (403): the page does not ask.
  const mayManageUsers = mayCall(consoleContract.settings.users, role) && session !== null;
  const parts = [SETTINGS_PARTS.claimPage, ...(mayManageUsers ? [SETTINGS_PARTS.users] : []), SETTINGS_PARTS.integration, SETTINGS_PARTS.pricing];

  return (
    <>
      <title>{`Settings · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Settings</h1>
      </div>
      <p className="lead">
        {mayManageUsers
          ? 'Your claim page, who can use this console, how the service reads your store, and your pricing.'
          : 'Your claim page, how the service reads your store, and your pricing.'}
      </p>
      {mayEdit ? null : <p className="notice">Your role ({role}) can see the settings but not change them. Ask an owner or an admin.</p>}
      <OnThisPage parts={parts} />
      {settings.isPending ? (
        <p className="muted" aria-live="polite">
          Loading settings…
        </p>
      ) : settings.isError ? (
        <ErrorMessage message={`The settings could not be loaded: ${errorMessage(settings.error)}`} />
      ) : (
        <ClaimPageSection settings={settings.data} mayEdit={mayEdit} mayChangeLogo={mayChangeLogo} />
      )}
      {mayManageUsers ? <UsersSection selfId={session.user.id} /> : null}
      {settings.data === undefined ? null : (
        <>
          <DeclarationsSection settings={settings.data} mayEdit={mayEdit} />
          <PricingSection settings={settings.data} />
        </>
      )}
    </>
  );
}
