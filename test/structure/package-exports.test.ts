/**
 * The package as a consumer imports it: every subpath of the `exports` map resolves (through the
 * package's own name, from the built `dist/`), carries its type declarations, and exposes exactly
 * the runtime names its source entry point exports. The root is a narrow front door: every name it
 * has is re-exported from a subpath, so a name it holds back stays importable.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | { types: string; import: string }>;
};
const SUBPATHS = Object.entries(manifest.exports).filter(
  (entry): entry is [string, { types: string; import: string }] => typeof entry[1] !== 'string',
);
const SOURCES: Record<string, string> = {
  '.': '../../src/index.js',
  './binding': '../../src/binding/index.js',
  './connections': '../../src/connections/index.js',
  './operations': '../../src/operations/index.js',
  './machines': '../../src/machines/index.js',
  './diagrams': '../../src/diagrams/index.js',
};

async function builtNames(specifier: string): Promise<string[]> {
  const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
  });
  return JSON.parse(stdout) as string[];
}

describe('the exports map', () => {
  it('lists every entry point the source has, and only those', () => {
    expect(SUBPATHS.map(([subpath]) => subpath).sort()).toEqual(Object.keys(SOURCES).sort());
  });

  it.each(SUBPATHS)(
    '%s resolves from dist with declarations and the source entry point names',
    async (subpath, target) => {
      expect(existsSync(join(ROOT, target.types))).toBe(true);
      expect(existsSync(join(ROOT, target.import))).toBe(true);
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      const source = (await import(SOURCES[subpath] ?? '')) as Record<string, unknown>;
      expect(await builtNames(specifier)).toEqual(Object.keys(source).sort());
    },
  );

  it('has a root that re-exports only from the subpaths, by name', async () => {
    const file = join(ROOT, 'src/index.ts');
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
    const origins = source.statements.map((statement) =>
      ts.isExportDeclaration(statement) &&
      statement.exportClause !== undefined &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? `../../src/${statement.moduleSpecifier.text.replace(/^\.\//, '')}`
        : ts.SyntaxKind[statement.kind],
    );
    const subpathSources = Object.entries(SOURCES)
      .filter(([subpath]) => subpath !== '.')
      .map(([, path]) => path);
    expect(origins.filter((origin) => !subpathSources.includes(origin))).toEqual([]);
    const root = Object.keys((await import(SOURCES['.'] ?? '')) as Record<string, unknown>);
    const onSubpaths = new Set<string>();
    for (const path of subpathSources) {
      for (const name of Object.keys((await import(path)) as Record<string, unknown>)) {
        onSubpaths.add(name);
      }
    }
    expect(root.filter((name) => !onSubpaths.has(name))).toEqual([]);
    expect(root).toContain('defineMcpClientConnection');
  });
});
