// One carrier table (contract/carriers.ts): docs/carriers.md's slug table names every slug, in the
// table's order, with exactly the table's name, and each name it lists as also accepted resolves
// to its row's slug; carrierName answers the sandbox's name and "Unknown carrier" for anything else;
// the server's re-exports are the contract's own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARRIER_NAMES, CARRIER_SLUGS, CARRIERS, carrierName, SANDBOX_COURIER } from '../contract/carriers.js';
import { carrierName as claimsCarrierName } from '../server/domain/claims/index.js';
import { CARRIER_SLUGS as domainSlugs, isCarrierSlug, normalizeCourierId, SANDBOX_COURIER as domainSandbox } from '../server/domain/shipments/index.js';

interface DocRow {
  slug: string;
  name: string;
  alsoAccepted: string[];
}

/** The rows of the table headed "| Slug | Carrier | Also accepted |" in docs/carriers.md. */
function documentedRows(markdown: string): DocRow[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*Slug\s*\|\s*Carrier\s*\|\s*Also accepted\s*\|\s*$/.test(line));
  expect(header, 'the slug table of docs/carriers.md').toBeGreaterThanOrEqual(0);
  expect(lines[header + 1]).toMatch(/^\|(\s*-+\s*\|){3}\s*$/);
  const rows: DocRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    expect(cells, line).toHaveLength(3);
    const slug = /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    expect(slug, `a slug in backticks: ${line}`).toBeDefined();
    rows.push({
      slug: slug as string,
      name: cells[1] as string,
      alsoAccepted: (cells[2] ?? '') === '' ? [] : (cells[2] as string).split(',').map((name) => name.trim()),
    });
  }
  return rows;
}

const rows = documentedRows(readFileSync(join(import.meta.dirname, '..', 'docs', 'carriers.md'), 'utf8'));

describe('the carrier table', () => {
  it('is documented whole: every slug of the contract, in its order, with exactly its name', () => {
    expect(rows.map((row) => row.slug)).toEqual([...CARRIER_SLUGS]);
    expect(rows.map((row) => [row.slug, row.name])).toEqual(CARRIERS.map((carrier) => [carrier.slug, carrier.name]));
  });

  it.each(rows.map((row) => [row.slug, row] as const))('documents %s with names that resolve to it', (slug, row) => {
    expect(isCarrierSlug(slug)).toBe(true);
    expect(row.name).toBe(CARRIER_NAMES[slug as keyof typeof CARRIER_NAMES]);
    for (const name of row.alsoAccepted) expect(normalizeCourierId(name), name).toBe(slug);
  });

  it('has one name per slug, and no two slugs with one name', () => {
    expect(new Set(CARRIERS.map((carrier) => carrier.slug)).size).toBe(CARRIERS.length);
    expect(new Set(CARRIERS.map((carrier) => carrier.name)).size).toBe(CARRIERS.length);
  });

  it('names the sandbox courier and calls anything else an unknown carrier', () => {
    expect(carrierName('ups')).toBe('UPS');
    expect(carrierName('canada_post')).toBe('Canada Post');
    expect(carrierName('s10')).toBe('Postal service (international)');
    expect(carrierName(SANDBOX_COURIER)).toBe('Sandbox (test parcel)');
    expect(SANDBOX_COURIER).toBe('sandbox');
    for (const other of ['unknown', '', 'UPS', 'toString', '__proto__', 'constructor']) expect(carrierName(other), other).toBe('Unknown carrier');
    expect(isCarrierSlug('sandbox')).toBe(false);
    expect(isCarrierSlug('unknown')).toBe(false);
  });

  it('is the one the server uses', () => {
    expect(domainSlugs).toBe(CARRIER_SLUGS);
    expect(domainSandbox).toBe(SANDBOX_COURIER);
    expect(claimsCarrierName).toBe(carrierName);
  });
});
