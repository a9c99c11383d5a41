// The confirmation of a decision, mounted each time the dialog opens (so nothing typed carries over):
// what it does, the note, and for an approval the resolution, for a payment the payout. A refusal
// of the server (400 or 422) keeps the dialog open, each complaint beside its field and the keyboard
// on the first of them; a 409 is the section's business (the claim moved meanwhile).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, errorMessage, fieldError } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { DECISION, STATUS_LABEL, type Claim, type ClaimStatus } from './claims';
import { localDay } from '../../components/calendar';
import { decisionBody, payoutDraftOf, resolutionDraftOf, serverFieldErrors, type DecisionBody, type FieldErrors, type PayoutDraft, type ResolutionDraft } from './decision-form';
import { PayoutFields, ResolutionFields } from './DecisionFields';

interface Props {
  claim: Claim;
  choice: ClaimStatus;
  /** The note of the section, trimmed; undefined when there is none. */
  note: string | undefined;
  /** The failure of the last attempt, if any. */
  error: unknown;
  pending: boolean;
  onConfirm: (body: DecisionBody) => void;
  onCancel: () => void;
  titleId: string;
  consequenceId: string;
}

export function ClaimDecisionDialog({ claim, choice, note, error, pending, onConfirm, onCancel, titleId, consequenceId }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const [today] = useState(() => localDay());
  const [resolution, setResolution] = useState<ResolutionDraft>(() => resolutionDraftOf(claim));
  const [payout, setPayout] = useState<PayoutDraft>(() => payoutDraftOf(claim, today));
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  /** Counts refusals (the page's or the server's): each sends the keyboard to the first field named. */
  const [refusals, setRefusals] = useState(0);

  // The server's last refusal, until the person changes something; a 409 is said by the section.
  const [dismissed, setDismissed] = useState<unknown>(null);
  const showServer = error !== null && error !== undefined && error !== dismissed && !(error instanceof ApiError && error.status === 409);
  const errors: FieldErrors = { ...(showServer ? serverFieldErrors(error) : {}), ...localErrors };

  useEffect(() => {
    if (error !== null && error !== undefined) setRefusals((count) => count + 1);
  }, [error]);

  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const built = decisionBody({ status: choice, note, resolution, payout, today });
    if ('errors' in built) {
      setLocalErrors(built.errors);
      setRefusals((count) => count + 1);
      return;
    }
    setLocalErrors({});
    onConfirm(built.body);
  };

  // A change takes back what was said about the fields, the page's and the server's, until the next try.
  const changed = () => {
    setLocalErrors({});
    setDismissed(error);
  };
  const changeResolution = (patch: Partial<ResolutionDraft>) => {
    changed();
    setResolution((current) => ({ ...current, ...patch }));
  };
  const changePayout = (patch: Partial<PayoutDraft>) => {
    changed();
    setPayout((current) => ({ ...current, ...patch }));
  };

  const failure =
    Object.keys(errors).length > 0
      ? 'The decision could not be recorded: check the fields marked below.'
      : showServer
        ? `The decision could not be recorded: ${fieldError(error, 'note') ?? errorMessage(error)}`
        : undefined;

  return (
    <form ref={formRef} className="dialog-body" onSubmit={submit} noValidate>
      <h2 id={titleId}>{DECISION[choice].question}</h2>
      <p id={consequenceId}>
        {`From ${STATUS_LABEL[claim.status]} to ${STATUS_LABEL[choice]}. `}
        {DECISION[choice].consequence}
      </p>
      {note === undefined ? (
        <p className="muted">No note.</p>
      ) : (
        <>
          <p className="claim-dialog-note-label">Your note, kept in the history:</p>
          <blockquote className="claim-note-quote">{note}</blockquote>
        </>
      )}
      <ErrorMessage message={failure} />
      {choice === 'approved' ? <ResolutionFields claim={claim} draft={resolution} change={changeResolution} errors={errors} /> : null}
      {choice === 'paid' ? <PayoutFields claim={claim} draft={payout} change={changePayout} errors={errors} today={today} /> : null}
      <div className="dialog-actions">
        {/* Cancel first: without fields, it is what the dialog focuses when it opens. */}
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
        {/* aria-disabled, not disabled: a disabled button loses the keyboard's focus to the page. */}
        <button type="submit" className={`button ${DECISION[choice].tone === 'danger' ? 'danger' : 'primary'}`} aria-disabled={pending}>
          {pending ? 'Saving…' : DECISION[choice].confirm}
        </button>
      </div>
    </form>
  );
}
