// The claim page's logo: shown as the page shows it, uploaded as the image itself (the body of a
// PUT, which the typed client cannot send, so its answer is read here with the contract's schema),
// and removed. The file's size is checked before it is sent; the server judges the image.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { consoleContract, ConsoleSettings } from '../../../../../contract/console/index.js';
import { api, ApiError, bodyOf, errorMessage, fieldError, sendBytes } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatBytes } from '../../format';
import { settingsQuery, type Settings } from './queries';
import { LOGO_EXPLANATION, LOGO_MAX_BYTES } from './wording';

/** The logo as the claim page shows it, or a word that there is none. */
export function LogoPreview({ logoUrl }: { logoUrl: string | null }) {
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

export function LogoForm({ logoUrl }: { logoUrl: string | null }) {
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
