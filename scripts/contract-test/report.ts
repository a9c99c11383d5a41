// What a contract-test run reports (test-artifacts/contract-test.json): its figures and each
// failure with what was sent and what came back. The run writes it; test/contract-test.test.ts reads it.
import type { NewmanRunSummary } from 'newman';
import type { ContractTestCollection } from './collection.js';

export interface ContractTestFailure {
  request: string;
  check: string;
  message: string;
  sent: string | null;
  answered: string | null;
}

export interface ContractTestReport {
  requests: number;
  checks: number;
  failedChecks: number;
  /** Operations of the document that answered a valid request. */
  operations: number;
  linksFollowed: number;
  positiveRequests: number;
  negativeRequests: number;
  variationsNotApplicable: number;
  failures: ContractTestFailure[];
}

export function figures(summary: NewmanRunSummary, collection: ContractTestCollection): ContractTestReport {
  const stats = summary.run.stats;
  return {
    requests: stats.requests.total ?? 0,
    checks: stats.assertions.total ?? 0,
    failedChecks: stats.assertions.failed ?? 0,
    operations: collection.operationsCovered,
    linksFollowed: collection.linksFollowed,
    positiveRequests: collection.positiveRequests,
    negativeRequests: collection.negativeRequests,
    variationsNotApplicable: collection.variationsNotApplicable,
    failures: summary.run.failures.map((failure) => {
      const ref = 'ref' in failure.cursor ? failure.cursor.ref : undefined;
      const execution = summary.run.executions.find((candidate) => candidate.cursor.ref === ref);
      return {
        request: failure.source?.name ?? 'unknown',
        check: failure.error.test ?? failure.error.name,
        message: failure.error.message,
        sent: execution ? `${execution.request.method} ${execution.request.url.toString()} ${execution.request.body?.toString() ?? ''}` : null,
        answered: execution?.response ? `${execution.response.code} ${execution.response.stream?.toString('utf8') ?? ''}` : null,
      };
    }),
  };
}
