// npm run admin -- user create: a merchant's console user, with the one-time link where its
// password is chosen.
import type { Command } from 'commander';
import { createMerchantUser, SETUP_LINK_TTL_MS } from '../../domain/access/index.js';
import { UserCreateOptions } from '../options.js';
import { action, operatorOn, parseOptions, readConfig, withDatabase, type Report } from '../shared.js';

async function userCreate(command: Command): Promise<Report> {
  const options = parseOptions(UserCreateOptions, command);
  const config = readConfig();
  const { user, setupPath } = await withDatabase(async (db) =>
    createMerchantUser(db, await operatorOn(db, options.merchant), { email: options.email, role: options.role }, new Date()),
  );
  const setupUrl = `${config.publicUrl}${setupPath}`;
  const hours = SETUP_LINK_TTL_MS / 3_600_000;
  return {
    json: { user: { id: user.id, email: user.email, role: user.role, merchant: options.merchant }, setup_url: setupUrl, setup_expires_in_hours: hours },
    lines: [
      `Created ${user.role} ${user.email} of merchant "${options.merchant}".`,
      `Setup link (shown once, valid ${hours} h): ${setupUrl}`,
    ],
  };
}

/** user create. */
export function registerUserCommands(program: Command): void {
  const user = program.command('user').description("merchants' console users");
  user
    .command('create')
    .description('create a console user; prints a one-time link (24 h) where the password is chosen')
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .option('--email <email>', 'the login email (required)')
    .option('--role <role>', 'owner (everything), admin (everything but users) or viewer (read only) (required)')
    .action(action(userCreate));
}
