// Every status the claim has had, oldest first: its filing, then each decision with who made it and
// its note.
import { Section } from '../../components/Section';
import { formatDateTime } from '../../format';
import { ClaimStatusBadge } from './ClaimStatusBadge';
import { byLabel, STATUS_LABEL, type ClaimDetail } from './claims';

export function ClaimHistorySection({ history }: { history: ClaimDetail['history'] }) {
  return (
    <Section title="History" description="Oldest first.">
      <ol className="claim-history">
        {history.map((change, index) => (
          <li key={`${change.created_at}-${index}`}>
            <p className="claim-change">
              <ClaimStatusBadge status={change.to_status} />
              <span className="muted">{change.from_status === null ? 'Filed' : `from ${STATUS_LABEL[change.from_status]}`}</span>
            </p>
            <p className="claim-change-time">
              <time dateTime={change.created_at}>{formatDateTime(change.created_at)}</time>
              {change.by === null ? null : <span className="claim-change-by">{` · by ${byLabel(change.by.label)}`}</span>}
            </p>
            {change.note === null ? null : <p className="claim-note-text">{change.note}</p>}
          </li>
        ))}
      </ol>
    </Section>
  );
}
