// The decision: one button per status the server says the claim may move to (the same domain rule
// as the operator's CLI), a note kept in the history, and a confirmation before anything is sent.
// A 409 means the claim moved meanwhile (another user, or the operator): the server's message is
// shown and the claim read again. Viewers see the claim, not the buttons.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { consoleContract } from '../../../../../contract/console/index.js';
import type { ConsoleRole } from '../../../../../contract/policy.js';
import { api, ApiError, bodyOf, errorMessage, fieldError, mayCall, sentence } from '../../api';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { orderQuery } from '../orders/queries';
import { CLAIMS_KEY, claimQuery, DECISION, STATUS_LABEL, type ClaimDetail, type ClaimStatus } from './claims';

/** The note's rule is the contract's own (at most 2000 characters, counted as the server counts them). */
const noteSchema = consoleContract.claims.setStatus.body.shape.note;

interface Props {
  detail: ClaimDetail;
  role: ConsoleRole;
}

/**
 * What a decision may have made stale elsewhere: the queue (every filter), the order page, which
 * lists the order's claims, and the overview, which counts open claims (every month: its queries
 * start with 'overview'). The claim itself is replaced by the answer.
 */
async function invalidateAfterDecision(queryClient: QueryClient, sourceOrderId: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: [...CLAIMS_KEY, 'list'] }),
    queryClient.invalidateQueries({ queryKey: orderQuery(sourceOrderId).queryKey }),
    queryClient.invalidateQueries({ queryKey: ['overview'] }),
  ]);
}

export function ClaimDecisionSection({ detail, role }: Props) {
  const id = useId();
  const queryClient = useQueryClient();
  const outcomeRef = useRef<HTMLDivElement>(null);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [choice, setChoice] = useState<ClaimStatus | null>(null);
  const [done, setDone] = useState('');
  const [conflict, setConflict] = useState<string | undefined>();
  // Bumped to move focus to the outcome once the dialog has closed (closing gives focus back to
  // the button that opened it, which the new status may have removed).
  const [focusRequest, setFocusRequest] = useState(0);
  const claim = detail.claim;

  useEffect(() => {
    if (focusRequest > 0) outcomeRef.current?.focus();
  }, [focusRequest]);

  const decide = useMutation({
    mutationFn: async (input: { status: ClaimStatus; note: string | undefined }) =>
      bodyOf(await api.claims.setStatus({ params: { id: claim.id }, body: input.note === undefined ? { status: input.status } : input }), 200),
    onSuccess: async (answer, input) => {
      queryClient.setQueryData(claimQuery(claim.id).queryKey, answer);
      setChoice(null);
      setNote('');
      setDone(`${DECISION[input.status].done}${input.note === undefined ? '' : ' Your note is in the history.'}`);
      setFocusRequest((count) => count + 1);
      await invalidateAfterDecision(queryClient, claim.source_order_id);
    },
    onError: async (error) => {
      if (!(error instanceof ApiError && error.status === 409)) return;
      // Not a failure of this dialog: the claim is not what the page showed. Say so, and show it as it is.
      setChoice(null);
      setConflict(`The decision was not recorded: ${sentence(error.message)} The claim has been read again.`);
      setFocusRequest((count) => count + 1);
      await Promise.all([queryClient.invalidateQueries({ queryKey: claimQuery(claim.id).queryKey }), invalidateAfterDecision(queryClient, claim.source_order_id)]);
    },
  });

  const choose = (status: ClaimStatus) => {
    setDone('');
    setConflict(undefined);
    const checked = noteSchema.safeParse(note.trim());
    if (!checked.success) {
      setNoteError(sentence(checked.error.issues[0]?.message ?? 'is not a valid note'));
      return;
    }
    setNoteError(undefined);
    setChoice(status);
  };

  const closeDialog = () => {
    decide.reset();
    setChoice(null);
  };

  const mayDecide = mayCall(consoleContract.claims.setStatus, role);
  const trimmed = note.trim();
  const noteHintId = `${id}-note-hint`;
  const noteErrorId = `${id}-note-error`;

  return (
    <Section title="Decision">
      <div className="claim-outcome" ref={outcomeRef} tabIndex={-1}>
        <p className="claim-done" role="status">
          {done}
        </p>
        <ErrorMessage message={conflict} />
      </div>
      {!mayDecide ? (
        <p className="notice">Your role ({role}) can see claims but not decide them. Ask an owner or an admin.</p>
      ) : detail.next_statuses.length === 0 ? (
        <p className="muted">{`This claim is ${STATUS_LABEL[claim.status].toLowerCase()}, a final status: it cannot move again.`}</p>
      ) : (
        <div>
          <div className="field">
            <label htmlFor={`${id}-note`}>Note (optional)</label>
            <p className="field-hint" id={noteHintId}>
              Kept in the claim&apos;s history with your decision. Up to 2000 characters.
            </p>
            <textarea
              id={`${id}-note`}
              className="text-input claim-note-input"
              rows={4}
              value={note}
              onChange={(event) => {
                setNote(event.target.value);
                setNoteError(undefined);
              }}
              aria-invalid={noteError === undefined ? undefined : true}
              aria-describedby={noteError === undefined ? noteHintId : `${noteHintId} ${noteErrorId}`}
            />
            {noteError === undefined ? null : (
              <p className="field-error" id={noteErrorId}>
                {noteError}
              </p>
            )}
          </div>
          <div className="claim-decision-buttons">
            {detail.next_statuses.map((status) => (
              <button key={status} type="button" className={`button ${buttonClass(status)}`} onClick={() => choose(status)}>
                {DECISION[status].verb}
              </button>
            ))}
          </div>
        </div>
      )}

      <Dialog open={choice !== null} onClose={closeDialog} labelledBy={`${id}-dialog-title`} describedBy={`${id}-dialog-consequence`}>
        {choice === null ? null : (
          <div className="dialog-body">
            <h2 id={`${id}-dialog-title`}>{DECISION[choice].question}</h2>
            <p id={`${id}-dialog-consequence`}>
              {`From ${STATUS_LABEL[claim.status]} to ${STATUS_LABEL[choice]}. `}
              {DECISION[choice].consequence}
            </p>
            {trimmed === '' ? (
              <p className="muted">No note.</p>
            ) : (
              <>
                <p className="claim-dialog-note-label">Your note, kept in the history:</p>
                <blockquote className="claim-note-quote">{trimmed}</blockquote>
              </>
            )}
            <ErrorMessage message={decide.isError && !(decide.error instanceof ApiError && decide.error.status === 409) ? `The decision could not be recorded: ${fieldError(decide.error, 'note') ?? errorMessage(decide.error)}` : undefined} />
            <div className="dialog-actions">
              {/* Cancel first: it is what the dialog focuses when it opens. */}
              <button type="button" className="button secondary" onClick={closeDialog}>
                Cancel
              </button>
              <button
                type="button"
                className={`button ${DECISION[choice].tone === 'danger' ? 'danger' : 'primary'}`}
                onClick={() => decide.mutate({ status: choice, note: trimmed === '' ? undefined : trimmed })}
                disabled={decide.isPending}
              >
                {decide.isPending ? 'Saving…' : DECISION[choice].confirm}
              </button>
            </div>
          </div>
        )}
      </Dialog>
    </Section>
  );
}

function buttonClass(status: ClaimStatus): string {
  const tone = DECISION[status].tone;
  return tone === 'danger' ? 'danger-outline' : tone;
}
