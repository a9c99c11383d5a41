// A claim's status as a word in a coloured pill: the word carries the meaning, the colour only helps.
import { STATUS_LABEL, type ClaimStatus } from './claims';
import './claims.css';

export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  return <span className={`claim-status claim-status-${status}`}>{STATUS_LABEL[status]}</span>;
}
