// What the billing page reads: a month's statement, and where its CSV is.
import { queryOptions } from '@tanstack/react-query';
import { insertParamsIntoPath } from '@ts-rest/core';
import { consoleContract } from '../../../../../contract/console/index.js';
import { api, bodyOf, pathParam } from '../../api';

export const statementQuery = (month: string) =>
  queryOptions({
    queryKey: ['billing', 'statement', month] as const,
    queryFn: async () => bodyOf(await api.billing.statement({ params: { month: pathParam(month) } }), 200),
  });

/**
 * The CSV's address, from the contract's route: a plain same-origin link, which the session cookie
 * authenticates, and which the browser saves as a file (the answer is an attachment).
 */
export const statementCsvUrl = (month: string): string =>
  insertParamsIntoPath({ path: consoleContract.billing.csv.path, params: { month: pathParam(month) } });
