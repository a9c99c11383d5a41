// /settings: the store's integration declarations and its claim page (admins and owners change
// them), the price basis note, the pricing terms the operator set, and, for owners only, the users.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { consoleContract } from '../../../../../contract/console/index.js';
import { errorMessage, mayCall, sessionQuery } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { PRODUCT_NAME } from '../../navigation';
import { ClaimPageSection } from './ClaimPageSection';
import { DeclarationsSection } from './DeclarationsSection';
import { PriceBasisNote, PricingSection } from './PricingSection';
import { settingsQuery } from './queries';
import { UsersSection } from './UsersSection';
import './settings.css';

export function SettingsPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const settings = useQuery(settingsQuery);
  const role = session?.user.role ?? 'viewer';
  const mayEdit = mayCall(consoleContract.settings.update, role);
  const mayChangeLogo = mayCall(consoleContract.settings.setLogo, role) && mayCall(consoleContract.settings.removeLogo, role);
  // Admins and viewers are refused the users (403): the page does not ask.
  const mayManageUsers = mayCall(consoleContract.settings.users, role);

  return (
    <>
      <title>{`Settings · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>Settings</h1>
      </div>
      <p className="lead">
        How the service reads your store&apos;s orders and quotes, what your claim page shows shoppers, and what its protection costs
        {mayManageUsers ? '; and who can use this console.' : '.'}
      </p>
      {mayEdit ? null : <p className="notice">Your role ({role}) can see the settings but not change them. Ask an owner or an admin.</p>}
      {settings.isPending ? (
        <p className="muted" aria-live="polite">
          Loading settings…
        </p>
      ) : settings.isError ? (
        <ErrorMessage message={`The settings could not be loaded: ${errorMessage(settings.error)}`} />
      ) : (
        <>
          <DeclarationsSection settings={settings.data} mayEdit={mayEdit} />
          <ClaimPageSection settings={settings.data} mayEdit={mayEdit} mayChangeLogo={mayChangeLogo} />
          <PriceBasisNote />
          <PricingSection settings={settings.data} />
        </>
      )}
      {mayManageUsers && session !== null ? <UsersSection selfId={session.user.id} /> : null}
    </>
  );
}
