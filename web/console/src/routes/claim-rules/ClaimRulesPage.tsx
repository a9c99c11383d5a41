// /claims/rules: the store's claim rules, an ordered list that decides new and open claims on its own
// (the first rule that is on and matches), each decision recorded with the rule's name, its version
// and the evidence it read. The current version on top; admins and owners edit, try and save the
// list (each save a new version); viewers read it.
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { consoleContract } from '../../../../../contract/console/index.js';
import { errorMessage, mayCall, sessionQuery } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatDateTime } from '../../format';
import { PRODUCT_NAME } from '../../navigation';
import { claimRulesQuery, type RuleSet } from './queries';
import { RulesEditor } from './RulesEditor';
import { RulesReadOnly } from './RulesReadOnly';
import '../claims/claims.css';
import './claim-rules.css';

function VersionLine({ ruleSet }: { ruleSet: RuleSet }) {
  const on = ruleSet.rules.filter((rule) => rule.enabled).length;
  if (ruleSet.version === 0 || ruleSet.updated_at === null) {
    return <p className="rules-version">No rules have been set yet: every claim waits for a person.</p>;
  }
  return (
    <p className="rules-version">
      <strong>{`Version ${ruleSet.version}`}</strong>
      {`, set `}
      <time dateTime={ruleSet.updated_at}>{formatDateTime(ruleSet.updated_at)}</time>
      {`: ${ruleSet.rules.length} ${ruleSet.rules.length === 1 ? 'rule' : 'rules'}, ${on} on.`}
    </p>
  );
}

export function ClaimRulesPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const rules = useQuery(claimRulesQuery);
  const role = session?.user.role ?? 'viewer';
  // Saving and trying need the same role; the page offers the editor only to whoever may do both.
  const mayEdit = mayCall(consoleContract.claimRules.put, role) && mayCall(consoleContract.claimRules.dryRun, role);

  return (
    <>
      <title>{`Claim rules · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <nav className="claim-breadcrumb" aria-label="Breadcrumb">
        <Link to="/claims">Claims</Link>
      </nav>
      <div className="page-header">
        <h1>Claim rules</h1>
      </div>
      <p className="lead">
        Rules decide claims on their own: the first rule that is on and whose conditions all hold approves, denies or sends a claim to review when it is filed, and again while it is open as its
        parcel&apos;s scans come in. The claim&apos;s history names the rule, its version and what it read.
      </p>

      {rules.isPending ? (
        <p className="muted" aria-live="polite">
          Loading the rules…
        </p>
      ) : rules.isError ? (
        <ErrorMessage message={`The rules could not be loaded: ${errorMessage(rules.error)}`} />
      ) : (
        <>
          <VersionLine ruleSet={rules.data} />
          {/* The editor starts from the list read first and keeps what is typed across later reads; its save resets it. */}
          {mayEdit ? <RulesEditor ruleSet={rules.data} /> : <RulesReadOnly rules={rules.data.rules} role={role} />}
        </>
      )}
    </>
  );
}
