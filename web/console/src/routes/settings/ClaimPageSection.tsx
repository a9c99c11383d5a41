// The store's claim page, where its shoppers file claims themselves: its address, and what it shows
// them. Admins and owners change its accent colour, support contacts and claim windows (one PATCH of
// the settings; the server judges every value and names the field it refuses) and its logo (the
// image itself as the body of a PUT, which the typed client cannot send); viewers read them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { consoleContract, ConsoleSettings, type ConsoleSettingsPatch } from '../../../../../contract/console/index.js';
import { api, ApiError, bodyOf, errorMessage, fieldError, sendBytes } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../../../shared/Field';
import { Facts, Section } from '../../components/Section';
import { formatBytes } from '../../format';
import { settingsQuery, type Settings } from './queries';
import {
  ACCENT_EXPLANATION,
  AFTER_DELIVERY_WINDOW_EXPLANATION,
  days,
  LOGO_EXPLANATION,
  LOGO_MAX_BYTES,
  LOST_WINDOW_EXPLANATION,
  PICKER_START_COLOR,
  SUPPORT_EXPLANATION,
  WINDOWS_EXPLANATION,
} from './wording';

type ClaimPage = Settings['claim_page'];
type ClaimPageBody = NonNullable<z.input<typeof ConsoleSettingsPatch>['claim_page']>;

interface ClaimPageSectionProps {
  settings: Settings;
  /** May change the colour, contacts and windows (PATCH settings). */
  mayEdit: boolean;
  /** May upload and remove the logo. */
  mayChangeLogo: boolean;
}

export function ClaimPageSection({ settings, mayEdit, mayChangeLogo }: ClaimPageSectionProps) {
  const claimPage = settings.claim_page;
  return (
    <Section title="Claim page" description="Where your shoppers file claims themselves, and what it shows them.">
      <PublicAddress urlPath={claimPage.url_path} />
      {mayEdit ? <ClaimPageForm claimPage={claimPage} /> : <ClaimPageReadOnly claimPage={claimPage} />}
      {mayChangeLogo ? <LogoForm logoUrl={claimPage.logo_url} /> : null}
    </Section>
  );
}

/** The page's address, to open or to copy into the store's emails and help pages. */
function PublicAddress({ urlPath }: { urlPath: string }) {
  const id = useId();
  const address = new URL(urlPath, window.location.origin).href;
  return (
    <div className="settings-claim-address">
      <p>
        Shoppers find their order there by its number and email, and file a claim. Link to it from your order emails and help pages:
      </p>
      <p className="settings-claim-link">
        <a href={urlPath} target="_blank" rel="noreferrer">
          <span id={`${id}-address`}>{address}</span>
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
      <CopyButton text={address} targetId={`${id}-address`} what="the claim page's address" />
    </div>
  );
}

/** A colour as a small square beside its value: an SVG fill, not a style attribute (the CSP allows none). */
function Swatch({ color }: { color: string }) {
  return (
    <svg className="settings-swatch" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="0.5" y="0.5" width="15" height="15" rx="3" fill={color} />
    </svg>
  );
}

/** A window's figure, large, and what it means under it. */
const windowFact = (count: number, meaning: string): ReactNode => (
  <>
    <span className="settings-figure">{days(count)}</span>
    <p className="settings-hint">{meaning}</p>
  </>
);

const orNone = (value: string | null, shown: (value: string) => ReactNode) => (value === null ? <span className="muted">None</span> : shown(value));

function ClaimPageReadOnly({ claimPage }: { claimPage: ClaimPage }) {
  return (
    <Facts
      items={[
        [
          'Accent colour',
          claimPage.accent_color === null ? (
            <span className="muted">The claim page&apos;s default</span>
          ) : (
            <span className="settings-color-value">
              <Swatch color={claimPage.accent_color} />
              <code>{claimPage.accent_color}</code>
            </span>
          ),
        ],
        ['Logo', <LogoPreview logoUrl={claimPage.logo_url} />],
        ['Support e-mail', orNone(claimPage.support_email, (email) => <span className="settings-email">{email}</span>)],
        [
          'Support URL',
          orNone(claimPage.support_url, (url) => (
            <a href={url} target="_blank" rel="noreferrer" className="settings-email">
              {url}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          )),
        ],
        ['Lost parcels', windowFact(claimPage.lost_after_days, LOST_WINDOW_EXPLANATION)],
        ['Damage, missing items, theft', windowFact(claimPage.after_delivery_days, AFTER_DELIVERY_WINDOW_EXPLANATION)],
      ]}
    />
  );
}

/** The form's values as typed: the windows stay text until they are sent. */
interface Draft {
  accent: string | null;
  email: string;
  url: string;
  lostDays: string;
  afterDeliveryDays: string;
}

const draftOf = (claimPage: ClaimPage): Draft => ({
  accent: claimPage.accent_color,
  email: claimPage.support_email ?? '',
  url: claimPage.support_url ?? '',
  lostDays: String(claimPage.lost_after_days),
  afterDeliveryDays: String(claimPage.after_delivery_days),
});

/** An empty contact is none at all. */
const contact = (value: string) => (value.trim() === '' ? null : value.trim());

/** A number input holds "" when what was typed is no number; JSON has no way to send that. */
const dayCount = (value: string): number | undefined => (value.trim() === '' || !Number.isFinite(Number(value)) ? undefined : Number(value));

type LocalErrors = Partial<Record<'lost_after_days' | 'after_delivery_days', string>>;

function ClaimPageForm({ claimPage }: { claimPage: ClaimPage }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(claimPage));
  const [localErrors, setLocalErrors] = useState<LocalErrors>({});
  const [saved, setSaved] = useState(false);
  /** Counts refused saves: each one sends the keyboard to the first field named. */
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const colorRef = useRef<HTMLInputElement>(null);

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
  const accentError = errorOf('accent_color');
  const accentDescribedBy = [`${id}-accent-hint`, `${id}-accent-value`, accentError === undefined ? undefined : `${id}-accent-error`].filter(Boolean).join(' ');
  // A refusal of the whole claim_page object (not one of its fields) is said above the form.
  const wholeError = fieldError(save.error, 'claim_page');

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="settings-claim-form">
      <ErrorMessage
        message={
          save.isError ? `The claim page could not be saved: ${wholeError ?? errorMessage(save.error)}` : Object.keys(localErrors).length > 0 ? 'The claim page could not be saved: check the fields marked below.' : undefined
        }
      />

      <div className="field">
        <label htmlFor={`${id}-accent`}>Accent colour</label>
        <p className="field-hint" id={`${id}-accent-hint`}>
          {ACCENT_EXPLANATION}
        </p>
        <div className="settings-color-row">
          <input
            ref={colorRef}
            id={`${id}-accent`}
            className="settings-color"
            type="color"
            value={draft.accent ?? PICKER_START_COLOR}
            aria-invalid={accentError === undefined ? undefined : true}
            aria-describedby={accentDescribedBy}
            onChange={(event) => change({ accent: event.target.value })}
          />
          <code id={`${id}-accent-value`} className="settings-hex">
            {draft.accent ?? 'Default'}
          </code>
          {draft.accent === null ? null : (
            <button
              type="button"
              className="button secondary small"
              onClick={() => {
                change({ accent: null });
                // The button goes with the colour: the keyboard stays on the picker.
                colorRef.current?.focus();
              }}
            >
              Use the default colour
            </button>
          )}
        </div>
        {accentError === undefined ? null : (
          <p className="field-error" id={`${id}-accent-error`}>
            {accentError}
          </p>
        )}
      </div>

      <fieldset className="settings-fieldset" aria-describedby={`${id}-support-hint`}>
        <legend>Support contacts</legend>
        <p className="settings-hint" id={`${id}-support-hint`}>
          {SUPPORT_EXPLANATION}
        </p>
        <div className="settings-pair">
          <Field
            label="Support e-mail"
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={draft.email}
            onChange={(event) => change({ email: event.target.value })}
            error={errorOf('support_email')}
          />
          <Field
            label="Support URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            value={draft.url}
            onChange={(event) => change({ url: event.target.value })}
            error={errorOf('support_url')}
          />
        </div>
      </fieldset>

      <fieldset className="settings-fieldset" aria-describedby={`${id}-windows-hint`}>
        <legend>Claim windows</legend>
        <p className="settings-hint" id={`${id}-windows-hint`}>
          {WINDOWS_EXPLANATION}
        </p>
        <div className="settings-pair">
          <Field
            label="Lost parcels: days without a scan"
            hint={LOST_WINDOW_EXPLANATION}
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            step={1}
            className="settings-days"
            value={draft.lostDays}
            onChange={(event) => change({ lostDays: event.target.value })}
            error={errorOf('lost_after_days')}
          />
          <Field
            label="Damage, missing items, theft: days after delivery"
            hint={AFTER_DELIVERY_WINDOW_EXPLANATION}
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            step={1}
            className="settings-days"
            value={draft.afterDeliveryDays}
            onChange={(event) => change({ afterDeliveryDays: event.target.value })}
            error={errorOf('after_delivery_days')}
          />
        </div>
      </fieldset>

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

/** The logo as the claim page shows it, or a word that there is none. */
function LogoPreview({ logoUrl }: { logoUrl: string | null }) {
  return logoUrl === null ? (
    <span className="muted">None</span>
  ) : (
    <span className="settings-logo-frame">
      <img className="settings-logo" src={logoUrl} alt="Your logo, as the claim page shows it" />
    </span>
  );
}

/** Read the logo's answer with the contract's own schema: the typed client is not there to do it. */
async function uploadLogo(file: File): Promise<Settings> {
  const { status, body } = await sendBytes('PUT', consoleContract.settings.setLogo.path, file);
  if (status !== 200) throw new ApiError(status, body);
  const parsed = ConsoleSettings.safeParse(body);
  if (!parsed.success) throw new ApiError(500, undefined);
  return parsed.data;
}

function LogoForm({ logoUrl }: { logoUrl: string | null }) {
  const id = useId();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [localError, setLocalError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState('');

  const upload = useMutation({
    mutationFn: uploadLogo,
    onSuccess: (answer) => {
      queryClient.setQueryData(settingsQuery.queryKey, answer);
      formRef.current?.reset();
      setDone('Logo uploaded. The claim page shows it now.');
    },
  });
  const remove = useMutation({
    mutationFn: async () => bodyOf(await api.settings.removeLogo(), 200),
    onSuccess: (answer) => {
      queryClient.setQueryData(settingsQuery.queryKey, answer);
      setDone('Logo removed.');
      // The button went with the logo: the keyboard goes to the file input, to choose another.
      fileRef.current?.focus();
    },
  });

  const refuse = (message: string) => {
    setLocalError(message);
    fileRef.current?.focus();
  };

  const busy = upload.isPending || remove.isPending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setDone('');
    setLocalError(undefined);
    upload.reset();
    remove.reset();
    const file = fileRef.current?.files?.[0];
    if (file === undefined) return refuse('Choose an image file first.');
    if (file.size > LOGO_MAX_BYTES) return refuse(`This file is ${formatBytes(file.size)}: the logo must be at most 10 MB.`);
    upload.mutate(file);
  };

  // The server names a refused image "logo" (or "body", for a body it could not take at all).
  const fileError = localError ?? fieldError(upload.error, 'logo') ?? fieldError(upload.error, 'body');

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="settings-logo-form">
      <ErrorMessage
        message={
          upload.isError ? `The logo could not be uploaded: ${errorMessage(upload.error)}` : remove.isError ? `The logo could not be removed: ${errorMessage(remove.error)}` : undefined
        }
      />
      <div className="settings-logo-current">
        <p className="settings-label">Current logo</p>
        <LogoPreview logoUrl={logoUrl} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-file`}>Logo</label>
        <p className="field-hint" id={`${id}-hint`}>
          {LOGO_EXPLANATION}
        </p>
        <input
          ref={fileRef}
          id={`${id}-file`}
          className="settings-file"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-invalid={fileError === undefined ? undefined : true}
          aria-describedby={fileError === undefined ? `${id}-hint` : `${id}-hint ${id}-error`}
          onChange={() => {
            setDone('');
            setLocalError(undefined);
          }}
        />
        {fileError === undefined ? null : (
          <p className="field-error" id={`${id}-error`}>
            {fileError}
          </p>
        )}
      </div>
      <div className="settings-form-actions">
        {/* aria-disabled, not disabled: a disabled button loses the keyboard's focus to the page. */}
        <button type="submit" className="button primary" aria-disabled={busy}>
          {upload.isPending ? 'Uploading…' : 'Upload logo'}
        </button>
        {logoUrl === null ? null : (
          <button
            type="button"
            className="button danger-outline"
            aria-disabled={busy}
            onClick={() => {
              if (busy) return;
              setDone('');
              setLocalError(undefined);
              upload.reset();
              remove.mutate();
            }}
          >
            {remove.isPending ? 'Removing…' : 'Remove logo'}
          </button>
        )}
        <p className="settings-saved" role="status">
          {done}
        </p>
      </div>
    </form>
  );
}
