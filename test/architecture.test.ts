// The layers hold (docs/architecture.md): dependencies point one way, from the front doors to the
// domain, never back. Read from the source: every relative import of every file, resolved.
// server/domain, server/cli and server/jobs import nothing from server/wire, server/http or
// server/routes (the HTTP layer), and the domain imports no web framework. Each context of the
// domain is a folder with an index.ts, and nothing outside the folder imports past that index.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(import.meta.dirname, '..'));
const DOMAIN = 'server/domain';

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder)).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

interface Import {
  /** As written. */
  specifier: string;
  /** Repository path of a relative import (its .js named as the .ts it is), else null. */
  resolved: string | null;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  // import ... from '...', export ... from '...', import '...' (for its effects), import('...').
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
  return specifiers.map((specifier) => ({
    specifier,
    resolved: specifier.startsWith('.') ? normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts') : null,
  }));
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

describe('the layers', () => {
  const HTTP_LAYER = ['server/wire', 'server/http', 'server/routes'];

  it.each(['server/domain', 'server/cli', 'server/jobs'])('%s imports nothing of the HTTP layer', (folder) => {
    const files = sourceFiles(folder);
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((file) =>
      importsOf(file)
        .filter((found) => found.resolved !== null && HTTP_LAYER.some((layer) => under(found.resolved as string, layer)))
        .map((found) => `${file} imports ${found.specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('the domain imports no web framework', () => {
    const offending = sourceFiles(DOMAIN).flatMap((file) =>
      importsOf(file)
        .filter((found) => /^(express|body-parser|cookie)$|^@ts-rest\//.test(found.specifier))
        .map((found) => `${file} imports ${found.specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('sees an import it must refuse (the check is not blind)', () => {
    const seen = importsOf('server/app.ts').map((found) => found.resolved);
    expect(seen).toContain('server/http/body.ts');
    expect(seen.some((path) => path !== null && under(path, 'server/routes'))).toBe(true);
    expect(sourceFiles(DOMAIN)).toContain('server/domain/shipments/cancel-shipment.ts');
  });
});

/** The domain's context a path belongs to (its folder under server/domain), or null. */
const contextOf = (path: string): string | null => /^server\/domain\/([^/]+)\//.exec(path)?.[1] ?? null;

/** Imports of `file` that reach into another context past its index. */
function pastTheIndex(file: string, imports: readonly Import[]): string[] {
  return imports
    .filter((found) => {
      const target = found.resolved === null ? null : contextOf(found.resolved);
      return target !== null && target !== contextOf(file) && found.resolved !== `${DOMAIN}/${target}/index.ts`;
    })
    .map((found) => `${file} imports ${found.specifier}`);
}

describe('the contexts', () => {
  const contexts = readdirSync(join(ROOT, DOMAIN)).filter((name) => statSync(join(ROOT, DOMAIN, name)).isDirectory());

  it('are folders of the domain, each with an index that lists its surface', () => {
    expect(contexts).toEqual(expect.arrayContaining(['orders', 'shipments', 'claims', 'billing', 'events', 'privacy', 'access', 'platforms', 'addresses', 'stores']));
    expect(readdirSync(join(ROOT, DOMAIN)).filter((name) => !contexts.includes(name))).toEqual([]);
    expect(contexts.filter((context) => !sourceFiles(`${DOMAIN}/${context}`).includes(`${DOMAIN}/${context}/index.ts`))).toEqual([]);
  });

  it('are entered only through their index, from another context or from outside the domain', () => {
    const offending = sourceFiles('server').flatMap((file) => pastTheIndex(file, importsOf(file)));
    expect(offending).toEqual([]);
  });

  it('sees an import past the index (the check is not blind)', () => {
    const seen = importsOf('server/routes/claims.ts').map((found) => found.resolved);
    expect(seen).toContain('server/domain/claims/index.ts');
    const past = { specifier: '../claims/file-claim.js', resolved: 'server/domain/claims/file-claim.ts' };
    expect(pastTheIndex('server/domain/orders/cancel-order.ts', [past])).toEqual(['server/domain/orders/cancel-order.ts imports ../claims/file-claim.js']);
    expect(pastTheIndex('server/domain/claims/decide-claim.ts', [past])).toEqual([]);
  });
});
