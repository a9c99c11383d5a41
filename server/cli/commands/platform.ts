// npm run admin -- platform create: a commerce platform that pushes messages, registered with the
// secret that signs them (made here unless given, and then printed once).
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { createPlatform, MIN_SECRET_LENGTH } from '../../domain/platforms/index.js';
import { PlatformCreateOptions } from '../options.js';
import { action, operator, parseOptions, withDatabase, type Report } from '../shared.js';

async function platformCreate(command: Command): Promise<Report> {
  const options = parseOptions(PlatformCreateOptions, command);
  // Without --secret one is made here, so it never has to pass through a shell history.
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const platform = await withDatabase((db) => createPlatform(db, operator(), options.slug, secret));
  const shown = options.secret === undefined;
  return {
    json: { platform: { id: platform.id, slug: platform.slug, ...(shown ? { secret } : {}) } },
    lines: [
      `Created platform "${platform.slug}" (id ${platform.id}).`,
      ...(shown ? [`  shared secret: ${secret}`, 'Give it to the platform to sign its messages; it is not shown again.'] : []),
      `Next: npm run admin -- merchant connect --merchant <slug> --platform ${platform.slug}`,
    ],
  };
}

/** platform create. */
export function registerPlatformCommands(program: Command): void {
  const platform = program.command('platform').description('manage commerce platforms that push messages');
  platform
    .command('create')
    .description('register a platform and its shared signing secret')
    .option('--slug <slug>', 'identifier in the webhook URL, /api/webhooks/<slug> (required)')
    .option('--secret <secret>', `shared secret, at least ${MIN_SECRET_LENGTH} characters (default: a random one, printed once)`)
    .action(action(platformCreate));
}
