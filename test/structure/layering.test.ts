/**
 * The import direction of docs/architecture.md ("Layers and the import rule"), pinned: binding <-
 * wire <- openapi <- machines <- operations <- connections <- cli, and diagrams beside them,
 * importing only `xstate`. A file that needs to import "upwards" belongs lower.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** Which top-level folders each folder may import from (itself always allowed). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  binding: [],
  wire: ['binding'],
  openapi: ['binding', 'wire'],
  machines: ['binding', 'wire', 'openapi'],
  operations: ['binding', 'wire', 'openapi', 'machines'],
  connections: ['binding', 'wire', 'openapi', 'machines', 'operations'],
  cli: ['binding', 'wire', 'openapi', 'machines', 'operations', 'connections'],
  diagrams: [],
  '.': ['binding', 'wire', 'openapi', 'machines', 'operations', 'connections', 'cli'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split('/');
  return rest.length === 0 ? '.' : (first ?? '.');
}

function importSpecifiers(text: string): string[] {
  return [...text.matchAll(/from\s+'([^']+)'/g)].map((match) => match[1] ?? '');
}

function relativeImports(text: string): string[] {
  return importSpecifiers(text).filter((specifier) => specifier.startsWith('.'));
}

describe('source layering', () => {
  const files = sourceFiles(SRC);

  it('sees every layer that exists today', () => {
    expect([...new Set(files.map(layerOf))].sort()).toEqual(
      expect.arrayContaining([
        '.',
        'binding',
        'cli',
        'connections',
        'diagrams',
        'machines',
        'openapi',
        'operations',
        'wire',
      ]),
    );
  });

  it('imports only downwards', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      const allowed = ALLOWED[from];
      if (allowed === undefined) {
        violations.push(`${relative(SRC, file)}: folder "${from}" has no layering rule`);
        continue;
      }
      for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
        const to = layerOf(resolve(dirname(file), specifier));
        if (to !== from && !allowed.includes(to)) {
          violations.push(`${relative(SRC, file)} imports ${specifier} (${from} -> ${to})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the diagrams generic: they import only `xstate` and each other', () => {
    const foreign = files
      .filter((file) => layerOf(file) === 'diagrams')
      .flatMap((file) =>
        importSpecifiers(readFileSync(file, 'utf8'))
          .filter((specifier) => specifier !== 'xstate' && !specifier.startsWith('./'))
          .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
      );
    expect(foreign).toEqual([]);
  });

  it('keeps the optional `ai` package out of the runtime code', () => {
    const offenders = files.filter((file) =>
      /from\s+'ai(\/[^']*)?'/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('keeps the Graphviz renderer (a dev dependency) out of the source: src/ only writes DOT', () => {
    const offenders = files.filter((file) => /from\s+'@viz-js\//.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });
});
