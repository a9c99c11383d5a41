// The store's integration declarations: protection SKUs, quote origin and client profile. An admin
// or owner edits them (the server judges every value and names the field it refuses); a viewer
// reads them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { ConsoleSettingsPatch } from '../../../../../contract/console/index.js';
import { api, bodyOf, errorMessage, fieldError } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Facts } from '../../components/Section';
import { settingsQuery, type Settings } from './queries';
import { SETTINGS_PARTS, SettingsSection } from './SettingsSection';
import {
  CLIENT_PROFILE_EXPLANATION,
  CLIENT_PROFILES,
  labelOf,
  QUOTE_ORIGIN_EXPLANATION,
  QUOTE_ORIGINS,
  SKU_EXPLANATION,
  type Choice,
} from './wording';

type Patch = z.input<typeof ConsoleSettingsPatch>;

/** The most SKUs the contract accepts: no "Add" past it. */
const MAX_SKUS = ConsoleSettingsPatch.shape.protection_skus.unwrap()._def.maxLength?.value ?? Number.POSITIVE_INFINITY;

interface DeclarationsSectionProps {
  settings: Settings;
  mayEdit: boolean;
}

export function DeclarationsSection({ settings, mayEdit }: DeclarationsSectionProps) {
  return (
    <SettingsSection
      part={SETTINGS_PARTS.integration}
      description="How the service reads what your store sends. A wrong value raises no error: it quietly changes what happens to your orders and quotes."
    >
      {mayEdit ? <DeclarationsForm settings={settings} /> : <DeclarationsReadOnly settings={settings} />}
    </SettingsSection>
  );
}

function DeclarationsReadOnly({ settings }: { settings: Settings }) {
  const skus =
    settings.protection_skus.length === 0 ? (
      <span className="muted">None declared: only the built-in SKUs count.</span>
    ) : (
      <ul className="settings-sku-values">
        {settings.protection_skus.map((sku, index) => (
          <li key={`${index}-${sku}`}>
            <code>{sku}</code>
          </li>
        ))}
      </ul>
    );
  return (
    <Facts
      items={[
        [
          'Protection SKUs',
          <>
            {skus}
            <p className="settings-hint">{SKU_EXPLANATION}</p>
          </>,
        ],
        [
          'Quote origin',
          <>
            <ChoiceValue choice={labelOf(QUOTE_ORIGINS, settings.quote_origin)} value={settings.quote_origin} />
            <p className="settings-hint">{QUOTE_ORIGIN_EXPLANATION}</p>
          </>,
        ],
        [
          'Client profile',
          <>
            <ChoiceValue choice={labelOf(CLIENT_PROFILES, settings.client_profile)} value={settings.client_profile} />
            <p className="settings-hint">{CLIENT_PROFILE_EXPLANATION}</p>
          </>,
        ],
      ]}
    />
  );
}

/** A declared choice and what it means: "Backend · Your server or platform asks for quotes." */
function ChoiceValue<T extends string>({ choice, value }: { choice: Choice<T> | undefined; value: T }) {
  return (
    <span>
      {choice?.label ?? value}
      {choice === undefined ? null : <span className="muted"> · {choice.hint}</span>}
    </span>
  );
}

interface SkuEntry {
  /** Keeps an input's identity (and focus) when an entry above it is removed. */
  key: number;
  value: string;
}

function DeclarationsForm({ settings }: { settings: Settings }) {
  const id = useId();
  const queryClient = useQueryClient();
  const nextKey = useRef(0);
  const entriesOf = (skus: readonly string[]): SkuEntry[] => skus.map((value) => ({ key: nextKey.current++, value }));
  const [skus, setSkus] = useState<SkuEntry[]>(() => entriesOf(settings.protection_skus));
  const [quoteOrigin, setQuoteOrigin] = useState(settings.quote_origin);
  const [clientProfile, setClientProfile] = useState(settings.client_profile);
  const [saved, setSaved] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  /** Where the keyboard goes after the list changed: an entry's input, or the "Add" button. */
  const focusAfter = useRef<number | 'add' | null>(null);

  const save = useMutation({
    mutationFn: async (body: Patch) => bodyOf(await api.settings.update({ body }), 200),
    onSuccess: (answer) => {
      queryClient.setQueryData(settingsQuery.queryKey, answer);
      setSkus(entriesOf(answer.protection_skus));
      setQuoteOrigin(answer.quote_origin);
      setClientProfile(answer.client_profile);
      setSaved(true);
    },
  });

  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (target === 'add') addRef.current?.focus();
    else if (target !== null) document.getElementById(`${id}-sku-${target}`)?.focus();
  }, [skus, id]);

  // A refused save: the keyboard goes to the first field the server named.
  useEffect(() => {
    if (!save.isError) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [save.isError, save.error]);

  const changed = () => setSaved(false);

  const add = () => {
    const entry = { key: nextKey.current++, value: '' };
    focusAfter.current = entry.key;
    // The server's errors name SKUs by position: a list that changed shape would misplace them.
    save.reset();
    changed();
    setSkus((current) => [...current, entry]);
  };

  const remove = (index: number) => {
    const following = skus[index + 1] ?? skus[index - 1];
    focusAfter.current = following === undefined ? 'add' : following.key;
    save.reset();
    changed();
    setSkus((current) => current.filter((_, position) => position !== index));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    // Sent as typed: the server is the one judge of a SKU, and says which one it refuses and why.
    save.mutate({ protection_skus: skus.map((entry) => entry.value), quote_origin: quoteOrigin, client_profile: clientProfile });
  };

  const listError = fieldError(save.error, 'protection_skus');

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <ErrorMessage message={save.isError ? `The settings could not be saved: ${errorMessage(save.error)}` : undefined} />
      <fieldset className="settings-fieldset" aria-describedby={`${id}-skus-hint`}>
        <legend>Protection SKUs</legend>
        <p className="settings-hint" id={`${id}-skus-hint`}>
          {SKU_EXPLANATION}
        </p>
        {skus.length === 0 ? <p className="muted">None declared: only the built-in SKUs count.</p> : null}
        <ol className="settings-sku-list">
          {skus.map((entry, index) => {
            const inputId = `${id}-sku-${entry.key}`;
            const error = fieldError(save.error, `protection_skus[${index}]`);
            return (
              <li key={entry.key}>
                <div className="settings-sku-row">
                  <label htmlFor={inputId} className="visually-hidden">
                    Protection SKU {index + 1}
                  </label>
                  <input
                    className="text-input"
                    id={inputId}
                    type="text"
                    value={entry.value}
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={error === undefined ? undefined : true}
                    aria-describedby={error === undefined ? undefined : `${inputId}-error`}
                    onChange={(event) => {
                      const value = event.target.value;
                      changed();
                      setSkus((current) => current.map((item) => (item.key === entry.key ? { ...item, value } : item)));
                    }}
                  />
                  <button type="button" className="button secondary small" onClick={() => remove(index)}>
                    Remove<span className="visually-hidden"> SKU {index + 1}</span>
                  </button>
                </div>
                {error === undefined ? null : (
                  <p className="field-error" id={`${inputId}-error`}>
                    {error}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
        {listError === undefined ? null : <p className="field-error">{listError}</p>}
        {skus.length < MAX_SKUS ? (
          <button type="button" className="button secondary small" ref={addRef} onClick={add}>
            Add a SKU
          </button>
        ) : (
          <p className="settings-hint">{`${MAX_SKUS} SKUs at most.`}</p>
        )}
      </fieldset>

      <ChoiceGroup
        legend="Quote origin"
        explanation={QUOTE_ORIGIN_EXPLANATION}
        name={`${id}-quote-origin`}
        choices={QUOTE_ORIGINS}
        value={quoteOrigin}
        error={fieldError(save.error, 'quote_origin')}
        onChange={(value) => {
          changed();
          setQuoteOrigin(value);
        }}
      />
      <ChoiceGroup
        legend="Client profile"
        explanation={CLIENT_PROFILE_EXPLANATION}
        name={`${id}-client-profile`}
        choices={CLIENT_PROFILES}
        value={clientProfile}
        error={fieldError(save.error, 'client_profile')}
        onChange={(value) => {
          changed();
          setClientProfile(value);
        }}
      />

      <div className="settings-form-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save declarations'}
        </button>
        <p className="settings-saved" role="status">
          {saved ? 'Declarations saved.' : ''}
        </p>
      </div>
    </form>
  );
}

interface ChoiceGroupProps<T extends string> {
  legend: string;
  explanation: string;
  name: string;
  choices: ReadonlyArray<Choice<T>>;
  value: T;
  error: string | undefined;
  onChange: (value: T) => void;
}

/** Radio buttons: one tab stop, the arrow keys choose (the browser's own behaviour). */
function ChoiceGroup<T extends string>({ legend, explanation, name, choices, value, error, onChange }: ChoiceGroupProps<T>) {
  const id = useId();
  return (
    <fieldset className="settings-fieldset" aria-describedby={error === undefined ? `${id}-hint` : `${id}-hint ${id}-error`}>
      <legend>{legend}</legend>
      <p className="settings-hint" id={`${id}-hint`}>
        {explanation}
      </p>
      <div className="settings-choices">
        {choices.map((choice) => (
          <div className="settings-choice" key={choice.value}>
            <input
              type="radio"
              id={`${id}-${choice.value}`}
              name={name}
              value={choice.value}
              checked={value === choice.value}
              aria-describedby={`${id}-${choice.value}-hint`}
              onChange={() => onChange(choice.value)}
            />
            <label htmlFor={`${id}-${choice.value}`}>{choice.label}</label>
            <p className="settings-choice-hint" id={`${id}-${choice.value}-hint`}>
              {choice.hint}
            </p>
          </div>
        ))}
      </div>
      {error === undefined ? null : (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
