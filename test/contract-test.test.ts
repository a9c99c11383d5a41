// The outside contract test (npm run contract-test, docs/openapi.md): Portman's requests from
// openapi.json, sent by Newman to a fresh server. It takes about half a minute, so it runs here.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { documentLinks, documentOperations } from '../scripts/contract-test/portman-config.js';
import type { ContractTestReport } from '../scripts/contract-test/report.js';

const run = promisify(execFile);

describe('npm run contract-test', () => {
  it('sends positive, negative and linked requests for every operation, and every check passes', async () => {
    const document = JSON.parse(readFileSync('openapi.json', 'utf8')) as OpenAPIV3.Document;
    const operations = documentOperations(document);
    let exitCode = 0;
    let output = '';
    try {
      const result = await run(process.execPath, ['--import', 'tsx', 'scripts/contract-test.ts'], { maxBuffer: 64 * 1024 * 1024 });
      output = result.stdout + result.stderr;
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      exitCode = failed.code ?? 1;
      output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
    }
    const report = JSON.parse(readFileSync('test-artifacts/contract-test.json', 'utf8')) as ContractTestReport;
    expect(report.failures, output.slice(-4000)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.failedChecks).toBe(0);
    // Every operation of the document answered a valid request, and every link was followed.
    expect(operations.length).toBeGreaterThanOrEqual(25);
    expect(report.operations).toBe(operations.length);
    expect(report.linksFollowed).toBe(documentLinks(operations).length);
    expect(report.positiveRequests).toBeGreaterThanOrEqual(operations.length);
    // Each operation has at least its unauthenticated variation, most have fuzzed bodies too.
    expect(report.negativeRequests).toBeGreaterThan(2 * operations.length);
    expect(report.checks).toBeGreaterThan(5 * report.requests);
  }, 240_000);
});
