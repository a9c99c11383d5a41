// What every command of the admin CLI (server/cli/admin.ts, server/cli/commands/) shares: the
// operator it acts as, its usage error and report, options checked by their zod schema, the
// database opened for a command and always released, and the printing of the report.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { z } from 'zod';
import type { ErrorCode, FieldError } from '../../contract/errors.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { composeCli } from '../compose.js';
import type { Database } from '../db/client.js';
import { actingFor, type Scope, type ServiceScope } from '../domain/access/index.js';
import { findStoreBySlug } from '../domain/stores/index.js';
import { resolveDatabase } from '../db/resolve.js';

/** The operator running the CLI, as the audit log records it: the system user's name. */
export function operator(): ServiceScope {
  try {
    return { actor: { kind: 'operator', name: userInfo().username } };
  } catch {
    return { actor: { kind: 'operator', name: process.env.USER ?? 'unknown' } };
  }
}

/** The operator at work on the store the command names (by its slug): live data, as every operator command. */
export async function operatorOn(db: Database, storeSlug: string): Promise<Scope> {
  return actingFor(operator(), await findStoreBySlug(db, storeSlug));
}

/** Wire codes of the API, plus one for what only a CLI can get wrong. */
export type CliErrorCode = ErrorCode | 'invalid_configuration';

/** A command line that cannot run: exit 2, nothing touched. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code: CliErrorCode = 'invalid_request',
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** What a command prints: one JSON object with --json, else a few lines for a person. */
export interface Report {
  json: Record<string, unknown>;
  lines: string[];
}

export function parseOptions<Output>(schema: z.ZodType<Output, z.ZodTypeDef, unknown>, command: Command): Output {
  const parsed = schema.safeParse(command.opts());
  if (parsed.success) return parsed.data;
  const fieldErrors = parsed.error.issues.map((issue) => ({
    field: flagOf(command, String(issue.path[0] ?? '')),
    message: issue.message,
  }));
  const summary = fieldErrors.map((error) => `${error.field} ${error.message}`).join('; ');
  const noun = fieldErrors.length === 1 ? 'option' : 'options';
  throw new UsageError(`invalid ${noun}: ${summary}`, 'invalid_request', fieldErrors);
}

function flagOf(command: Command, attribute: string): string {
  return command.options.find((option) => option.attributeName() === attribute)?.long ?? attribute;
}

// ---------------------------------------------------------------------------------------------
// Database: resolved only once the options are known to be good, and always released.

export async function withDatabase<T>(run: (db: Database) => Promise<T>): Promise<T> {
  const config = readConfig();
  const database = await resolveDatabase(config);
  const { db, stop } = composeCli(database.url);
  try {
    return await run(db);
  } finally {
    await stop();
    // A no-op when the cluster was already running (the server's): only ours is stopped.
    await database.embedded?.stop();
  }
}

export function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, 'invalid_configuration');
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Program: what the commands' registrations and main() use.

/** Repeatable option; starts from undefined where "not given" must differ from "none". */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Runs a command and prints its report; errors travel up to main(). */
export function action(run: (command: Command) => Promise<Report>) {
  return async (_options: unknown, command: Command): Promise<void> => {
    const report = await run(command);
    const json = command.optsWithGlobals<{ json?: boolean }>().json === true;
    await write(process.stdout, json ? `${JSON.stringify(report.json)}\n` : `${report.lines.join('\n')}\n`);
  };
}

/** Resolves once the text is handed to the OS, so that process.exit cannot cut it off. */
export function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
