// The claim page's colour, support contacts and claim windows, as admins and owners change them: one
// PATCH of the settings. Only the windows are checked here (a number input cannot send what is no
// number); the server judges every value, and the field it names takes the keyboard.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api, bodyOf, errorMessage, fieldError } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { contact, dayCount, draftOf, type ClaimPage, type ClaimPageBody, type Draft, type LocalErrors } from './claim-page-draft';
import { AccentField, SupportFields, WindowFields } from './ClaimPageFields';
import { settingsQuery } from './queries';

export function ClaimPageForm({ claimPage }: { claimPage: ClaimPage }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(claimPage));
  const [localErrors, setLocalErrors] = useState<LocalErrors>({});
  const [saved, setSaved] = useState(false);
  /** Counts refused saves: each one sends the keyboard to the first field named. */
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  const save = useMutation({
    mutationFn: async (body: ClaimPageBody) => bodyOf(await api.settings.update({ body: { claim_page: body } }), 200),
    onSuccess: (answer) => {
      queryClient.setQueryData(settingsQuery.queryKey, answer);
      setDraft(draftOf(answer.claim_page));
      setSaved(true);
    },
    onError: () => setRefusals((count) => count + 1),
  });

  useEffect(() => {
    if (refusals === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const change = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft((current) => ({ ...current, ...patch }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    setSaved(false);
    const lost = dayCount(draft.lostDays);
    const afterDelivery = dayCount(draft.afterDeliveryDays);
    const missing: LocalErrors = {
      ...(lost === undefined ? { lost_after_days: 'Must be a whole number of days.' } : {}),
      ...(afterDelivery === undefined ? { after_delivery_days: 'Must be a whole number of days.' } : {}),
    };
    setLocalErrors(missing);
    if (lost === undefined || afterDelivery === undefined) {
      save.reset();
      setRefusals((count) => count + 1);
      return;
    }
    // Everything else is sent as typed: the server judges it, and names the field it refuses.
    save.mutate({
      accent_color: draft.accent,
      support_email: contact(draft.email),
      support_url: contact(draft.url),
      lost_after_days: lost,
      after_delivery_days: afterDelivery,
    });
  };

  const errorOf = (field: keyof ClaimPageBody) => (field in localErrors ? localErrors[field as keyof LocalErrors] : fieldError(save.error, `claim_page.${field}`));
  // A refusal of the whole claim_page object (not one of its fields) is said above the form.
  const wholeError = fieldError(save.error, 'claim_page');

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="settings-claim-form">
      <ErrorMessage
        message={
          save.isError ? `The claim page could not be saved: ${wholeError ?? errorMessage(save.error)}` : Object.keys(localErrors).length > 0 ? 'The claim page could not be saved: check the fields marked below.' : undefined
        }
      />

      <AccentField id={id} draft={draft} change={change} errorOf={errorOf} />
      <SupportFields id={id} draft={draft} change={change} errorOf={errorOf} />
      <WindowFields id={id} draft={draft} change={change} errorOf={errorOf} />

      <div className="settings-form-actions">
        {/* aria-disabled, not disabled: a disabled button loses the keyboard's focus to the page. */}
        <button type="submit" className="button primary" aria-disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save claim page'}
        </button>
        <p className="settings-saved" role="status">
          {saved ? 'Claim page saved.' : ''}
        </p>
      </div>
    </form>
  );
}
