// The store's console users, for its owners: the list, an invitation (its one-time setup link shown
// once, in a dialog, held in memory only until the dialog closes: never in a URL, the query cache
// or storage), and disabling a user after a confirmation (their sessions end at once).
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { ClientInferRequest, ClientInferResponseBody } from '@ts-rest/core';
import { useId, useState, type FormEvent } from 'react';
import { ConsoleRoleSchema, SETUP_LINK_TTL_HOURS, type consoleContract } from '../../../../../contract/console/index.js';
import { api, bodyOf, errorMessage, fieldError } from '../../api';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../../../shared/Field';
import { formatDateTime } from '../../format';
import { usersQuery, type User } from './queries';
import { SETTINGS_PARTS, SettingsSection } from './SettingsSection';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';

type Role = User['role'];
type InviteBody = ClientInferRequest<typeof consoleContract.settings.invite>['body'];
type Invited = ClientInferResponseBody<typeof consoleContract.settings.invite, 201>;

const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', admin: 'Admin', viewer: 'Viewer' };
const ROLE_HINT: Record<Role, string> = {
  owner: 'everything, users included',
  admin: 'everything but users',
  viewer: 'reads only',
};

export function UsersSection({ selfId }: { selfId: string }) {
  const queryClient = useQueryClient();
  const users = useQuery(usersQuery);
  const [disabling, setDisabling] = useState<User | null>(null);
  // The answer holds the setup link: it lives in this mutation only, which the dialog's closing
  // resets, and which the cache drops as soon as nothing observes it (gcTime 0).
  const invite = useMutation({
    mutationFn: async (body: InviteBody) => bodyOf(await api.settings.invite({ body }), 201),
    gcTime: 0,
    onSuccess: async () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });

  return (
    <SettingsSection part={SETTINGS_PARTS.users} description="Who can use this console. Owners can do everything, users included; admins everything but users; viewers only read.">
      <InviteForm invite={invite} />
      {users.isPending ? (
        <p className="muted" aria-live="polite">
          Loading users…
        </p>
      ) : users.isError ? (
        <ErrorMessage message={`The users could not be loaded: ${errorMessage(users.error)}`} />
      ) : (
        <UserTable users={users.data} selfId={selfId} onDisable={setDisabling} />
      )}
      <SetupLinkDialog invited={invite.data ?? null} onClose={() => invite.reset()} />
      <DisableDialog user={disabling} onClose={() => setDisabling(null)} />
    </SettingsSection>
  );
}

function InviteForm({ invite }: { invite: UseMutationResult<Invited, Error, InviteBody> }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    invite.mutate({ email, role }, { onSuccess: () => {
      setEmail('');
      setRole('viewer');
    } });
  };

  const roleError = fieldError(invite.error, 'role');
  return (
    <form className="settings-invite" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Invite a user</h3>
      <p className="settings-hint">They get a one-time link to choose their password. No email is sent: you pass the link on.</p>
      <ErrorMessage message={invite.isError ? `The invitation failed: ${errorMessage(invite.error)}` : undefined} />
      <div className="settings-invite-fields">
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldError(invite.error, 'email')}
        />
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select
            id={`${id}-role`}
            className="text-input settings-select"
            value={role}
            onChange={(event) => {
              const parsed = ConsoleRoleSchema.safeParse(event.target.value);
              if (parsed.success) setRole(parsed.data);
            }}
            aria-invalid={roleError === undefined ? undefined : true}
            aria-describedby={roleError === undefined ? undefined : `${id}-role-error`}
          >
            {ConsoleRoleSchema.options.map((option) => (
              <option key={option} value={option}>
                {`${ROLE_LABEL[option]}: ${ROLE_HINT[option]}`}
              </option>
            ))}
          </select>
          {roleError === undefined ? null : (
            <p className="field-error" id={`${id}-role-error`}>
              {roleError}
            </p>
          )}
        </div>
        <div className="settings-invite-submit">
          <button type="submit" className="button primary" disabled={invite.isPending}>
            {invite.isPending ? 'Inviting…' : 'Invite user'}
          </button>
        </div>
      </div>
    </form>
  );
}

interface UserTableProps {
  users: readonly User[];
  selfId: string;
  onDisable: (user: User) => void;
}

function UserTable({ users, selfId, onDisable }: UserTableProps) {
  return (
    <table className="table settings-users">
      <caption className="visually-hidden">The store&apos;s console users, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Password</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <tr key={user.id} className={user.disabled_at === null ? undefined : 'revoked'}>
            <td data-label="Email">
              <span className="settings-email">
                {user.email}
                {user.id === selfId ? <span className="muted"> (you)</span> : null}
              </span>
            </td>
            <td data-label="Role">{ROLE_LABEL[user.role]}</td>
            <td data-label="Password">{user.password_set ? 'Set' : <span className="settings-invited">Invited</span>}</td>
            <td data-label="Created">
              <time dateTime={user.created_at}>{formatDateTime(user.created_at)}</time>
            </td>
            <td data-label="Status">
              {user.disabled_at === null ? (
                <span className="status active">Active</span>
              ) : (
                <span className="status-cell">
                  <span className="status revoked">Disabled</span>
                  <time className="muted" dateTime={user.disabled_at}>
                    {formatDateTime(user.disabled_at)}
                  </time>
                </span>
              )}
            </td>
            <td className="row-actions">
              {user.disabled_at !== null ? (
                <EnableButton user={user} />
              ) : user.id === selfId ? (
                // The server refuses it (409): another owner must do it.
                <span className="muted settings-small">You cannot disable yourself</span>
              ) : (
                <button type="button" className="button danger-outline small" onClick={() => onDisable(user)}>
                  Disable<span className="visually-hidden"> {user.email}</span>
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface SetupLinkDialogProps {
  invited: Invited | null;
  onClose: () => void;
}

/** The invitation's setup link, once. Closing the dialog forgets it; a reload never had it. */
function SetupLinkDialog({ invited, onClose }: SetupLinkDialogProps) {
  return (
    <ShownOnceDialog
      shown={
        invited === null
          ? null
          : {
              title: `Setup link for ${invited.user.email}`,
              warning: `Send it to them yourself: no email goes out. It works once, within ${SETUP_LINK_TTL_HOURS} hours, and will not be shown again.`,
              label: 'Setup link',
              what: 'the setup link',
              value: invited.setup_url,
              rows: 3,
              closeLabel: 'I have copied the link',
              valueClassName: 'settings-link',
              copyClassName: 'settings-copy-link',
            }
      }
      onClose={onClose}
    />
  );
}

/** Enabling gives back what disabling took (the password they had), so it needs no confirmation. */
function EnableButton({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const enable = useMutation({
    mutationFn: async () => bodyOf(await api.settings.enable({ params: { id: user.id } }), 200),
    onSuccess: async () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
  return (
    <>
      <button type="button" className="button secondary small" onClick={() => enable.mutate()} disabled={enable.isPending}>
        {enable.isPending ? 'Enabling…' : 'Enable'}
        <span className="visually-hidden"> {user.email}</span>
      </button>
      <ErrorMessage message={enable.isError ? `${user.email} could not be enabled: ${errorMessage(enable.error)}` : undefined} />
    </>
  );
}

interface DisableDialogProps {
  user: User | null;
  onClose: () => void;
}

function DisableDialog({ user, onClose }: DisableDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const disable = useMutation({
    mutationFn: async (target: User) => bodyOf(await api.settings.disable({ params: { id: target.id } }), 200),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: usersQuery.queryKey });
      close();
    },
  });

  const close = () => {
    disable.reset();
    onClose();
  };

  return (
    <Dialog open={user !== null} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-note`}>
      {user === null ? null : (
        <div className="dialog-body">
          <h2 id={`${id}-title`}>Disable {user.email}?</h2>
          <p id={`${id}-note`}>They are logged out at once and can no longer log in, until an owner enables them again.</p>
          <ErrorMessage message={disable.isError ? `The user could not be disabled: ${errorMessage(disable.error)}` : undefined} />
          <div className="dialog-actions">
            {/* Cancel first: it is what the dialog focuses when it opens. */}
            <button type="button" className="button secondary" onClick={close}>
              Cancel
            </button>
            <button type="button" className="button danger" onClick={() => disable.mutate(user)} disabled={disable.isPending}>
              {disable.isPending ? 'Disabling…' : 'Disable user'}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
