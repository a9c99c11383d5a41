// npm run admin -- <command>: the operator's commands (merchants, platforms, keys, users, claims,
// privacy, billing; one file a group under commands/), on the same
// database as the server (DATABASE_URL, else the embedded cluster under DATA_DIR, reused when the
// server is running). The CLI only parses, validates, calls the domain and prints.
//
// Exit codes: 0 done; 1 the operation failed (the domain said no, or the database did);
// 2 bad usage or configuration, reported before any database is touched.
// With --json, stdout carries exactly one JSON object, the result or {error, error_code, errors}.
//
// Each group of commands registers itself from server/cli/commands/<group>.ts; what they share
// (the usage error, the report, the database) is in server/cli/shared.ts.
import { Command, CommanderError } from 'commander';
import type { FieldError } from '../../contract/errors.js';
import { AppError } from '../domain/kernel/index.js';
import { registerBillingCommands } from './commands/billing.js';
import { registerClaimCommands } from './commands/claim.js';
import { registerKeyCommands } from './commands/key.js';
import { registerMerchantCommands } from './commands/merchant.js';
import { registerPlatformCommands } from './commands/platform.js';
import { registerPrivacyCommands } from './commands/privacy.js';
import { registerUserCommands } from './commands/user.js';
import { UsageError, write, type CliErrorCode } from './shared.js';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

// ---------------------------------------------------------------------------------------------
// Program: the groups, in the order the help lists them.

function buildProgram(): Command {
  const program = new Command('admin')
    .description('Administer the shipment protection service: merchants, their API keys, claims and billing.')
    .option('--json', 'print one JSON object on stdout instead of text')
    // main() prints every error itself, in the chosen format and with the CLI's exit codes.
    .exitOverride()
    .configureOutput({ outputError: () => {} });

  registerMerchantCommands(program);
  registerPlatformCommands(program);
  registerKeyCommands(program);
  registerClaimCommands(program);
  registerUserCommands(program);
  registerPrivacyCommands(program);
  registerBillingCommands(program);

  return program;
}

// ---------------------------------------------------------------------------------------------
// Errors and exit.

interface Failure {
  exitCode: number;
  code: CliErrorCode;
  message: string;
  fieldErrors: FieldError[];
  /** Commander has already shown the help, so a person needs no extra line. */
  helpShown: boolean;
}

function classify(error: unknown): Failure {
  if (error instanceof CommanderError) {
    const helpShown = error.code === 'commander.help';
    const message = helpShown ? 'a command is required' : error.message.replace(/^error: /, '');
    return { exitCode: EXIT_USAGE, code: 'invalid_request', message, fieldErrors: [], helpShown };
  }
  if (error instanceof UsageError) {
    return { exitCode: EXIT_USAGE, code: error.code, message: error.message, fieldErrors: error.fieldErrors, helpShown: false };
  }
  if (error instanceof AppError) {
    return { exitCode: EXIT_FAILED, code: error.code, message: error.message, fieldErrors: error.fieldErrors, helpShown: false };
  }
  return { exitCode: EXIT_FAILED, code: 'internal_error', message: describeUnexpected(error), fieldErrors: [], helpShown: false };
}

/**
 * One line, never a stack: Prisma puts a code frame of the call site before the cause, which comes
 * last; a refused connection may be an AggregateError with no message of its own.
 */
function describeUnexpected(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    return error.errors.map((inner: unknown) => describeUnexpected(inner)).join('; ') || 'unknown error';
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.trim().split('\n').at(-1)?.trim() || 'unknown error';
}

async function report(failure: Failure, json: boolean): Promise<void> {
  if (json) {
    const body = { error: failure.message, error_code: failure.code, errors: failure.fieldErrors };
    await write(process.stdout, `${JSON.stringify(body)}\n`);
  } else if (!failure.helpShown) {
    const hint = failure.code === 'invalid_request' ? '\n(add --help for usage)' : '';
    await write(process.stderr, `error: ${failure.message}${hint}\n`);
  }
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    // --help and the help command also arrive here, as a CommanderError with exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    const failure = classify(error);
    await report(failure, program.opts<{ json?: boolean }>().json === true);
    return failure.exitCode;
  }
}

// Exit explicitly: a pool or cluster handle left open by a failure must not keep the CLI alive.
main(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${describeUnexpected(error)}\n`);
    process.exit(EXIT_FAILED);
  },
);
