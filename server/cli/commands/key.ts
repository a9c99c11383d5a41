// npm run admin -- key <create|revoke>: a merchant's API key issued, its plaintext printed once and
// never stored, or revoked at once.
import type { Command } from 'commander';
import { actingFor, findApiKeyStore, issueApiKey, type IssuedKey, revokeApiKey } from '../../domain/access/index.js';

import { KeyCreateOptions, KeyRevokeOptions } from '../options.js';
import { action, operator, operatorOn, parseOptions, withDatabase, type Report } from '../shared.js';

async function keyCreate(command: Command): Promise<Report> {
  const options = parseOptions(KeyCreateOptions, command);
  const issued = await withDatabase(async (db) => issueApiKey(db, await operatorOn(db, options.merchant), { mode: options.mode, scope: options.account ? 'account' : 'store', name: options.name }));
  return { json: { key: keyJson(issued) }, lines: describeKey(issued) };
}

async function keyRevoke(command: Command): Promise<Report> {
  const options = parseOptions(KeyRevokeOptions, command);
  const revoked = await withDatabase(async (db) => revokeApiKey(db, actingFor(operator(), await findApiKeyStore(db, options.id)), options.id, new Date()));
  return {
    json: { revoked: { id: revoked.id, revoked_at: revoked.revokedAt.toISOString() } },
    lines: [`Revoked API key ${revoked.id} (revoked at ${revoked.revokedAt.toISOString()}).`],
  };
}

function keyJson(issued: IssuedKey): Record<string, unknown> {
  return {
    id: issued.id,
    name: issued.name,
    key: issued.key,
    mode: issued.mode,
    scope: issued.scope,
    merchant: issued.storeSlug,
    last4: issued.last4,
  };
}

function describeKey(issued: IssuedKey): string[] {
  return [
    `Issued a ${issued.mode} ${issued.scope} key${issued.name === null ? '' : ` named "${issued.name}"`} for merchant "${issued.storeSlug}" (id ${issued.id}):`,
    `  ${issued.key}`,
    'It is shown this once: only its SHA-256 hash is stored, so it cannot be shown again.',
  ];
}

/** key create and revoke. */
export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description("manage merchants' API keys");
  key
    .command('create')
    .description('issue an API key; its plaintext is printed once and never stored')
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .option('--mode <mode>', 'live or test (required)')
    .option('--account', 'an account key, not scoped to one store')
    .option('--name <name>', 'a name to tell the key apart, e.g. "Production server" (1 to 100 characters)')
    .action(action(keyCreate));
  key
    .command('revoke')
    .description('revoke an API key at once')
    .option('--id <id>', 'id of the key, as printed by key create (required)')
    .action(action(keyRevoke));
}
