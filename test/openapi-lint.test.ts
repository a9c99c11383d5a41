// openapi.json as outside tools see it, each pinned in devDependencies: Redocly's recommended
// ruleset (redocly.yaml) and Spectral's OpenAPI ruleset (.spectral.yaml), with no error and no
// warning. swagger-parser and openapi-typescript run in test/openapi.test.ts and
// test/rest-types.test.ts; test/openapi.test.ts also proves the file is the one the contract makes.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
// No telemetry or update check: nothing here reaches beyond this machine.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };

describe('openapi.json in outside linters', () => {
  it('@redocly/cli lint (recommended): no error, no warning', async () => {
    const { stdout } = await run('node_modules/.bin/redocly', ['lint', 'openapi.json', '--format=json'], { env, maxBuffer: 16 * 1024 * 1024 });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('@stoplight/spectral-cli lint (spectral:oas): no finding of any severity', async () => {
    const result = await run('node_modules/.bin/spectral', ['lint', 'openapi.json', '--format', 'json', '--fail-severity', 'hint', '--quiet'], { env, maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    const findings = JSON.parse(result.stdout.trim() === '' ? '[]' : result.stdout) as Array<{ code: string; message: string; path: string[] }>;
    expect(findings.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`)).toEqual([]);
  }, 60_000);
});
