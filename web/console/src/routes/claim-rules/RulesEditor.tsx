// The rules as an admin changes them: add, remove, reorder, turn on and off, edit, then try the list
// on past claims (the dry run) and save it as a new version. Nothing is sent until one of the two
// buttons is pressed. A refusal (the page's or the server's) shows each message beside its field,
// by the server's path, and sends the keyboard to the first; a change takes the messages back.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, bodyOf, errorMessage } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { DryRunSection } from './DryRunSection';
import { claimRulesQuery, type RulesBody, type RuleSet } from './queries';
import { RuleCard } from './RuleCard';
import { draftOf, errorAt, looseErrors, newRule, rulesBody, serverPathErrors, type PathErrors, type RuleDraft } from './rules-draft';

type Action = 'save' | 'try';

/** Where the keyboard goes once the list has changed: React moves a rule's nodes, which loses it. */
type FocusRequest = { to: 'move'; key: string; by: -1 | 1 } | { to: 'name'; key: string } | { to: 'add' } | { to: 'invalid' } | null;

const sameRules = (a: readonly RuleDraft[], b: readonly RuleDraft[]) => JSON.stringify(rulesBody(a)) === JSON.stringify(rulesBody(b));

export function RulesEditor({ ruleSet }: { ruleSet: RuleSet }) {
  const queryClient = useQueryClient();
  const rootRef = useRef<HTMLDivElement>(null);
  const [drafts, setDrafts] = useState<RuleDraft[]>(() => ruleSet.rules.map(draftOf));
  const [saved, setSaved] = useState<RuleDraft[]>(drafts);
  const [localErrors, setLocalErrors] = useState<PathErrors>({});
  const [savedMessage, setSavedMessage] = useState('');
  const [focus, setFocus] = useState<FocusRequest>(null);
  /** The server's last refusal, of either button; a change takes it back (its paths may have moved). */
  const [refusal, setRefusal] = useState<unknown>(null);
  const refused = (error: unknown) => {
    setRefusal(error);
    setFocus({ to: 'invalid' });
  };

  const save = useMutation({
    mutationFn: async (body: RulesBody) => bodyOf(await api.claimRules.put({ body }), 200),
    onSuccess: (answer) => {
      queryClient.setQueryData(claimRulesQuery.queryKey, answer);
      const next = answer.rules.map(draftOf);
      setDrafts(next);
      setSaved(next);
      setSavedMessage(`Saved as version ${answer.version}. New claims are decided by it from now on.`);
    },
    onError: refused,
  });
  const dryRun = useMutation({
    mutationFn: async (body: RulesBody & { since: string }) => ({ result: bodyOf(await api.claimRules.dryRun({ body }), 200), ranWith: JSON.stringify(body.rules) }),
    onError: refused,
  });

  const errors: PathErrors = { ...serverPathErrors(refusal), ...localErrors };
  const loose = looseErrors(errors, ['since']);

  useEffect(() => {
    if (focus === null) return;
    const root = rootRef.current;
    const card = focus.to === 'move' || focus.to === 'name' ? root?.querySelector<HTMLElement>(`[data-rule-key="${focus.key}"]`) : null;
    let target: HTMLElement | null | undefined = null;
    if (focus.to === 'move') {
      const same = card?.querySelector<HTMLButtonElement>(`[data-move="${focus.by === -1 ? 'up' : 'down'}"]`);
      // At the top or the bottom its own button is off: the other one takes the keyboard.
      target = same && !same.disabled ? same : card?.querySelector<HTMLElement>(`[data-move="${focus.by === -1 ? 'down' : 'up'}"]`);
    } else if (focus.to === 'name') target = card?.querySelector<HTMLElement>('[data-rule-name]');
    else if (focus.to === 'add') target = root?.querySelector<HTMLElement>('[data-add-rule]');
    else target = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
    target?.focus();
    setFocus(null);
  }, [focus]);

  const edited = () => {
    setLocalErrors({});
    setRefusal(null);
    setSavedMessage('');
  };
  const change = (key: string, patch: Partial<RuleDraft>) => {
    edited();
    setDrafts((current) => current.map((draft) => (draft.key === key ? { ...draft, ...patch } : draft)));
  };
  const move = (index: number, by: -1 | 1) => {
    const target = index + by;
    const moving = drafts[index];
    if (moving === undefined || target < 0 || target >= drafts.length) return;
    edited();
    const next = drafts.filter((_, at) => at !== index);
    next.splice(target, 0, moving);
    setDrafts(next);
    setFocus({ to: 'move', key: moving.key, by });
  };
  const remove = (index: number) => {
    edited();
    const next = drafts.filter((_, at) => at !== index);
    setDrafts(next);
    const after = next[Math.min(index, next.length - 1)];
    setFocus(after === undefined ? { to: 'add' } : { to: 'name', key: after.key });
  };
  const add = () => {
    edited();
    const rule = newRule();
    setDrafts((current) => [...current, rule]);
    setFocus({ to: 'name', key: rule.key });
  };
  const discard = () => {
    edited();
    setDrafts(saved);
    // The button goes with the changes: the keyboard goes to "Add a rule".
    setFocus({ to: 'add' });
  };

  const [lastAction, setLastAction] = useState<Action>('save');
  /** The list to send for `action`, or null after saying what cannot be sent. */
  const built = (action: Action): RulesBody | null => {
    setLastAction(action);
    setRefusal(null);
    setSavedMessage('');
    const result = rulesBody(drafts);
    if ('errors' in result) {
      setLocalErrors(result.errors);
      setFocus({ to: 'invalid' });
      return null;
    }
    setLocalErrors({});
    return result;
  };

  const unsaved = !sameRules(drafts, saved);
  const current = rulesBody(drafts);
  const verb = lastAction === 'save' ? 'saved' : 'tried';
  // Messages beside their fields are pointed to; the others (the list's own) are said here.
  const marked = Object.keys(errors).length > loose.length ? ' Check the fields marked below.' : '';
  const failure =
    Object.keys(errors).length > 0
      ? `The rules could not be ${verb}.${marked}${loose.length > 0 ? ` ${loose.join(' ')}` : ''}`
      : refusal !== null
        ? `The rules could not be ${verb}: ${errorMessage(refusal)}`
        : undefined;

  return (
    <div ref={rootRef}>
      <Section title={`Your rules (${drafts.length})`} description="In order: the first rule that is on and whose conditions all hold decides a new or open claim. No rule matches: a person decides.">
        <ErrorMessage message={failure} />
        {drafts.length === 0 ? <p className="empty-state">No rules: every claim waits for a person. Add a rule to decide some claims on their own.</p> : null}
        <ol className="rules-list">
          {drafts.map((draft, index) => (
            <RuleCard
              key={draft.key}
              draft={draft}
              index={index}
              count={drafts.length}
              change={(patch) => change(draft.key, patch)}
              move={(by) => move(index, by)}
              remove={() => remove(index)}
              errorOf={(field) => errorAt(errors, index, field)}
            />
          ))}
        </ol>
        <button type="button" className="button secondary" data-add-rule="" onClick={add}>
          Add a rule
        </button>
        <div className="rules-actions">
          <button
            type="button"
            className="button primary"
            aria-disabled={save.isPending}
            onClick={() => {
              if (save.isPending) return;
              const body = built('save');
              if (body !== null) save.mutate(body);
            }}
          >
            {save.isPending ? 'Saving…' : `Save as version ${ruleSet.version + 1}`}
          </button>
          {unsaved ? (
            <button type="button" className="button secondary" onClick={discard}>
              Discard changes
            </button>
          ) : null}
          <p className="rules-saved" role="status">
            {savedMessage !== '' ? savedMessage : unsaved ? 'Unsaved changes.' : ''}
          </p>
        </div>
      </Section>
      <DryRunSection
        pending={dryRun.isPending}
        result={dryRun.data?.result}
        // The results are of the list as it was when run: say so once it has changed.
        stale={dryRun.data !== undefined && dryRun.data.ranWith !== JSON.stringify('rules' in current ? current.rules : null)}
        sinceError={errors.since}
        onRun={(since) => {
          if (dryRun.isPending) return;
          const body = built('try');
          if (body !== null) dryRun.mutate({ ...body, since });
        }}
      />
    </div>
  );
}
