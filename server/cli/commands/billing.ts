// npm run admin -- billing report: a merchant's billing statement for one month, the same object as
// GET /v1/billing/statements answers, or a few lines in USD.
import type { Command } from 'commander';
import { centsToMajorString } from '../../../contract/money.js';
import { billingStatement, type BillingStatementRecord, toBillingStatementResponse } from '../../domain/billing/index.js';

import type { StoreContext } from '../../domain/stores/index.js';
import { BillingReportOptions } from '../options.js';
import { action, operatorOn, parseOptions, withDatabase, type Report } from '../shared.js';

async function billingReport(command: Command): Promise<Report> {
  const options = parseOptions(BillingReportOptions, command);
  const { store, statement } = await withDatabase(async (db) => {
    const scope = await operatorOn(db, options.merchant);
    return { store: scope.store, statement: await billingStatement(db, scope, options.month) };
  });
  // The same object as GET /v1/billing/statements answers.
  return { json: toBillingStatementResponse(statement), lines: describeStatement(store, statement) };
}

function describeStatement(store: StoreContext, statement: BillingStatementRecord): string[] {
  const { premiums, repricings, credits } = statement;
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  return [
    `Billing statement of merchant "${store.slug}" (id ${store.id}) for ${statement.month} (UTC), in USD:`,
    `  premiums:   ${centsToMajorString(premiums.totalCents)} (${plural(premiums.count, 'booking')})`,
    `  repricings: ${centsToMajorString(repricings.totalCents)} (${plural(repricings.count, 're-pricing')})`,
    `  credits:    ${centsToMajorString(credits.totalCents)} (${plural(credits.count, 'reversal')})`,
    ...credits.weeks.map(
      (week) => `    ${week.week} (from ${week.startsOn}): ${centsToMajorString(week.totalCents)} (${plural(week.count, 'reversal')})`,
    ),
    `  net total:  ${centsToMajorString(statement.netCents)}`,
  ];
}

/** billing report. */
export function registerBillingCommands(program: Command): void {
  const billing = program.command('billing').description("merchants' billing");
  billing
    .command('report')
    .description("print a merchant's billing statement for one month (UTC), as GET /v1/billing/statements answers it")
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .option('--month <YYYY-MM>', 'the calendar month, e.g. 2026-11 (required)')
    .action(action(billingReport));
}
