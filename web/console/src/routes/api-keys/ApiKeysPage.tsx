// The store's API keys: list, create with an optional name (the secret is shown once, in a dialog, and held in memory
// only until the dialog closes: never in a URL, the query cache or storage) and revoke (after a
// confirmation).
import { queryOptions, useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { API_KEY_NAME_MAX_LENGTH, ApiKeyName, consoleContract, type ConsoleApiKey } from '../../../../../contract/console/index.js';
import { Field } from '../../../../shared/Field';
import { api, bodyOf, errorMessage, fieldError, mayCall, sentence, sessionQuery } from '../../api';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatDateTime } from '../../format';
import { PRODUCT_NAME } from '../../navigation';

type ApiKey = z.infer<typeof ConsoleApiKey>;
type Mode = ApiKey['mode'];

const keysQuery = queryOptions({
  queryKey: ['keys'] as const,
  queryFn: async () => bodyOf(await api.keys.list(), 200).data,
});

const MODE_LABEL: Record<Mode, string> = { live: 'Live', test: 'Test' };
const masked = (key: Pick<ApiKey, 'last4'>) => `••••${key.last4}`;
/** How a key is named in a button or a dialog: `live key "Production server" ••••9gXL`, or `live key ••••9gXL`. */
const described = (key: Pick<ApiKey, 'mode' | 'name' | 'last4'>) => `${key.mode} key ${key.name === null ? '' : `"${key.name}" `}${masked(key)}`;

interface Created {
  mode: Mode;
  name: string | null;
  secret: string;
}

export function ApiKeysPage() {
  const { data: session } = useSuspenseQuery(sessionQuery);
  const keys = useQuery(keysQuery);
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Created | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | undefined>(undefined);

  const role = session?.user.role ?? 'viewer';
  const mayCreate = mayCall(consoleContract.keys.create, role);
  const mayRevoke = mayCall(consoleContract.keys.revoke, role);

  const create = useMutation({
    // The answer holds the secret: the cache drops it as soon as the dialog resets the mutation.
    gcTime: 0,
    mutationFn: async (body: { mode: Mode; name?: string }) => bodyOf(await api.keys.create({ body }), 201),
    onSuccess: async (key) => {
      setCreated({ mode: key.mode, name: key.name, secret: key.secret });
      setName('');
      await queryClient.invalidateQueries({ queryKey: keysQuery.queryKey });
    },
  });

  // The name is optional; one given is checked by the contract's rule before it is sent.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const mode: Mode = submitter instanceof HTMLButtonElement && submitter.value === 'test' ? 'test' : 'live';
    if (name.trim() === '') {
      setNameProblem(undefined);
      create.mutate({ mode });
      return;
    }
    const checked = ApiKeyName.safeParse(name);
    if (!checked.success) {
      setNameProblem(sentence(checked.error.issues[0]?.message ?? 'is not a valid name'));
      return;
    }
    setNameProblem(undefined);
    create.mutate({ mode, name: checked.data });
  };
  const nameError = nameProblem ?? fieldError(create.error, 'name');

  return (
    <>
      <title>{`API keys · ${session?.store.name ?? ''} · ${PRODUCT_NAME}`}</title>
      <div className="page-header">
        <h1>API keys</h1>
      </div>
      <p className="lead">
        Your store&apos;s secret keys for the API. Live keys act on real orders; test keys reach the sandbox and change nothing.
      </p>
      {mayCreate ? (
        <form className="key-create" aria-label="Create a key" onSubmit={submit} noValidate>
          <Field
            label="Name"
            name="name"
            hint={`Optional, to tell your keys apart, e.g. "Production server". Up to ${API_KEY_NAME_MAX_LENGTH} characters.`}
            value={name}
            maxLength={API_KEY_NAME_MAX_LENGTH}
            autoComplete="off"
            onChange={(event) => {
              setName(event.target.value);
              setNameProblem(undefined);
            }}
            error={nameError}
          />
          <div className="actions">
            <button type="submit" name="mode" value="live" className="button primary" disabled={create.isPending}>
              Create live key
            </button>
            <button type="submit" name="mode" value="test" className="button secondary" disabled={create.isPending}>
              Create test key
            </button>
          </div>
        </form>
      ) : (
        <p className="notice">Your role ({role}) can see the keys but not create or revoke them. Ask an owner or an admin.</p>
      )}
      <ErrorMessage
        message={create.isError && fieldError(create.error, 'name') === undefined ? `The key could not be created: ${errorMessage(create.error)}` : undefined}
      />

      {keys.isPending ? (
        <p className="muted" aria-live="polite">
          Loading keys…
        </p>
      ) : keys.isError ? (
        <ErrorMessage message={`The keys could not be loaded: ${errorMessage(keys.error)}`} />
      ) : keys.data.length === 0 ? (
        <p className="empty-state">No keys yet.{mayCreate ? ' Create one to start using the API.' : ''}</p>
      ) : (
        <KeyTable keys={keys.data} mayRevoke={mayRevoke} onRevoke={setRevoking} />
      )}

      <SecretDialog
        created={created}
        onClose={() => {
          setCreated(null);
          // The mutation's answer holds the secret too: forget it with the dialog.
          create.reset();
        }}
      />
      <RevokeDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

interface KeyTableProps {
  keys: readonly ApiKey[];
  mayRevoke: boolean;
  onRevoke: (key: ApiKey) => void;
}

function KeyTable({ keys, mayRevoke, onRevoke }: KeyTableProps) {
  return (
    <table className="table key-table">
      <caption className="visually-hidden">Your store&apos;s API keys, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Key</th>
          <th scope="col">Mode</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Status</th>
          {mayRevoke ? (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id} className={key.revoked_at === null ? undefined : 'revoked'}>
            {/* data-label: the column's name, shown beside each value when rows stack on a phone. */}
            <td data-label="Name" className="key-name">
              {key.name === null ? <span className="muted">No name</span> : key.name}
            </td>
            <td data-label="Key">
              <code className="key-mask">{masked(key)}</code>
            </td>
            <td data-label="Mode">
              <span className={`badge ${key.mode}`}>{MODE_LABEL[key.mode]}</span>
            </td>
            <td data-label="Created">
              <time dateTime={key.created_at}>{formatDateTime(key.created_at)}</time>
            </td>
            <td data-label="Last used">
              {key.last_used_at === null ? <span className="muted">Never</span> : <time dateTime={key.last_used_at}>{formatDateTime(key.last_used_at)}</time>}
            </td>
            <td data-label="Status">
              {key.revoked_at === null ? (
                <span className="status active">Active</span>
              ) : (
                <span className="status-cell">
                  <span className="status revoked">Revoked</span>
                  <time className="muted" dateTime={key.revoked_at}>
                    {formatDateTime(key.revoked_at)}
                  </time>
                </span>
              )}
            </td>
            {mayRevoke ? (
              <td className="row-actions">
                {key.revoked_at === null ? (
                  <button type="button" className="button danger-outline small" onClick={() => onRevoke(key)} aria-label={`Revoke ${described(key)}`}>
                    Revoke
                  </button>
                ) : null}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface SecretDialogProps {
  created: Created | null;
  onClose: () => void;
}

/** The new key's secret, once. Closing the dialog forgets it; a reload never had it. */
function SecretDialog({ created, onClose }: SecretDialogProps) {
  const id = useId();
  const [copyStatus, setCopyStatus] = useState<string>('');

  const close = () => {
    setCopyStatus('');
    onClose();
  };

  const copy = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopyStatus('Copied to the clipboard.');
    } catch {
      // No clipboard (an insecure origin, or permission refused): the field is there to copy by hand.
      const field = document.getElementById(`${id}-secret`);
      if (field instanceof HTMLTextAreaElement) field.select();
      setCopyStatus('Copying failed: the key is selected, copy it with your keyboard.');
    }
  };

  return (
    <Dialog open={created !== null} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      {created === null ? null : (
        <div className="dialog-body">
          <h2 id={`${id}-title`}>Your new {created.mode} key</h2>
          {created.name === null ? null : <p className="key-created-name">Named &ldquo;{created.name}&rdquo;.</p>}
          <p className="warning" id={`${id}-note`}>
            Copy this key now and keep it somewhere safe. It will not be shown again: only its last four characters are kept.
          </p>
          <label htmlFor={`${id}-secret`}>Secret key</label>
          <div className="secret-row">
            {/* A text area, not an input: the whole key wraps into view, even on a phone. */}
            <textarea
              id={`${id}-secret`}
              className="secret"
              readOnly
              rows={2}
              value={created.secret}
              spellCheck={false}
              autoComplete="off"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button type="button" className="button secondary" onClick={() => void copy(created.secret)}>
              Copy
            </button>
          </div>
          <p className="copy-status" role="status">
            {copyStatus}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button primary" onClick={close}>
              I have saved the key
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

interface RevokeDialogProps {
  apiKey: ApiKey | null;
  onClose: () => void;
}

function RevokeDialog({ apiKey, onClose }: RevokeDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: async (key: ApiKey) => bodyOf(await api.keys.revoke({ params: { id: key.id } }), 200),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keysQuery.queryKey });
      close();
    },
  });

  const close = () => {
    revoke.reset();
    onClose();
  };

  return (
    <Dialog open={apiKey !== null} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      {apiKey === null ? null : (
        <div className="dialog-body">
          <h2 id={`${id}-title`}>
            Revoke the {described(apiKey)}?
          </h2>
          <p id={`${id}-note`}>Every request made with it will be refused at once. This cannot be undone.</p>
          <ErrorMessage message={revoke.isError ? `The key could not be revoked: ${errorMessage(revoke.error)}` : undefined} />
          <div className="dialog-actions">
            {/* Cancel first: it is what the dialog focuses when it opens. */}
            <button type="button" className="button secondary" onClick={close}>
              Cancel
            </button>
            <button type="button" className="button danger" onClick={() => revoke.mutate(apiKey)} disabled={revoke.isPending}>
              {revoke.isPending ? 'Revoking…' : 'Revoke key'}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
