// The decision: one button per status the server says the claim may move to (the same domain rule
// as the operator's CLI), a note kept in the history, and a confirmation before anything is sent,
// which asks an approval for its resolution and a payment for its payout (ClaimDecisionDialog).
// A 409 means the claim moved meanwhile (another user, or the operator): the server's message is
// shown and the claim read again. Viewers see the claim, not the buttons.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { consoleContract } from '../../../../../contract/console/index.js';
import type { ConsoleRole } from '../../../../../contract/policy.js';
import { api, ApiError, bodyOf, mayCall, sentence } from '../../api';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { centsOfMajor, formatCents } from '../../format';
import { orderQuery } from '../orders/queries';
import { ClaimDecisionDialog } from './ClaimDecisionDialog';
import { CLAIMS_KEY, claimQuery, DECISION, RESOLUTION_LABEL, STATUS_LABEL, type Claim, type ClaimDetail, type ClaimStatus } from './claims';
import type { DecisionBody } from './decision-form';

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
    // The statement counts the month's claims and payouts.
    queryClient.invalidateQueries({ queryKey: ['billing'] }),
  ]);
}

/** What was recorded, said once it is done: the resolution or payout as the server now holds it. */
function doneMessage(status: ClaimStatus, claim: Claim, withNote: boolean): string {
  const what =
    status === 'approved' && claim.resolution !== null
      ? ` ${RESOLUTION_LABEL[claim.resolution.type]} worth ${formatCents(centsOfMajor(claim.resolution.amount))}.`
      : status === 'paid' && claim.payout !== null
        ? ` ${formatCents(centsOfMajor(claim.payout.amount))} paid out.`
        : '';
  return `${DECISION[status].done}${what}${withNote ? ' Your note is in the history.' : ''}`;
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
    mutationFn: async (body: DecisionBody) => bodyOf(await api.claims.setStatus({ params: { id: claim.id }, body }), 200),
    onSuccess: async (answer, body) => {
      queryClient.setQueryData(claimQuery(claim.id).queryKey, answer);
      setChoice(null);
      setNote('');
      setDone(doneMessage(body.status, answer.claim, body.note !== undefined));
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
          <ClaimDecisionDialog
            claim={claim}
            choice={choice}
            note={trimmed === '' ? undefined : trimmed}
            error={decide.error}
            pending={decide.isPending}
            onConfirm={(body) => decide.mutate(body)}
            onCancel={closeDialog}
            titleId={`${id}-dialog-title`}
            consequenceId={`${id}-dialog-consequence`}
          />
        )}
      </Dialog>
    </Section>
  );
}

function buttonClass(status: ClaimStatus): string {
  const tone = DECISION[status].tone;
  return tone === 'danger' ? 'danger-outline' : tone;
}
