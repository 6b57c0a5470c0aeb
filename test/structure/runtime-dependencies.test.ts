/**
 * A lean install (decision 0025): the package depends at run time on `@modelcontextprotocol/core`
 * (the SDK's protocol schemas, which need zod alone), undici, xstate and eventsource-parser; the
 * SDK's server lines are optional peers a host installs for the `McpServer` it serves, and
 * `@opentelemetry/api` one it installs to trace. No module a consumer can import, and no type
 * declaration it reads, names a package outside that set but the one module that looks for the
 * OpenTelemetry API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/**
 * Every built file a consumer can reach: `dist/` without the demo (`dist/cli/demo*`, run from a
 * clone with the dev dependencies; the `probe` executable beside it is a consumer's).
 */
function consumerFiles(dir = join(ROOT, 'dist')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return consumerFiles(path);
    if (entry.name.startsWith('demo') && dir.endsWith('cli')) return [];
    return /\.(js|d\.ts)$/.test(entry.name) ? [path] : [];
  });
}

/** The bare package names a built file imports (`from '…'`, `import('…')`). */
function importedPackages(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\()\s*['"]([^'".][^'"]*)['"]/g)].map(
    (match) => match[1] ?? '',
  );
  return specifiers
    .filter((specifier) => !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : (specifier.split('/')[0] ?? ''),
    );
}

describe('the runtime dependencies', () => {
  it('are the protocol schemas, undici, xstate and eventsource-parser; the SDK lines are optional peers', () => {
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      '@modelcontextprotocol/core',
      'eventsource-parser',
      'undici',
      'xstate',
    ]);
    expect(manifest.peerDependencies).toMatchObject({ zod: expect.any(String) });
    for (const line of [
      '@modelcontextprotocol/sdk',
      '@modelcontextprotocol/server',
      '@opentelemetry/api',
    ]) {
      expect(manifest.peerDependenciesMeta[line]).toEqual({ optional: true });
    }
  });

  it('are the only packages a consumer-facing built file imports, besides zod', () => {
    const allowed = new Set([...Object.keys(manifest.dependencies), 'zod']);
    const strays = consumerFiles()
      .filter((file) => !file.endsWith('otel-api.d.ts'))
      .flatMap((file) =>
        importedPackages(readFileSync(file, 'utf8'))
          .filter((name) => !allowed.has(name))
          .map((name) => `${relative(ROOT, file)}: ${name}`),
      );
    expect(strays).toEqual([]);
  });

  it('leave the optional peer @opentelemetry/api to one module, which no declaration reaches', () => {
    // The module loads it with `require`, inside a `try` (decision 0032); its own declaration
    // names the API's types, and no other declaration imports that one, so a consumer without
    // the API type-checks. The build bundles the module into one chunk (decision 0048).
    const readers = consumerFiles()
      .filter((file) => /['"]@opentelemetry\/api['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(readers.filter((file) => file.endsWith('.d.ts'))).toEqual([
      'dist/binding/kernel/otel-api.d.ts',
    ]);
    const code = readers.filter((file) => file.endsWith('.js'));
    expect(code).toHaveLength(1);
    const text = readFileSync(join(ROOT, code[0] ?? ''), 'utf8');
    expect(text.match(/['"]@opentelemetry\/api['"]/g)).toEqual(['"@opentelemetry/api"']);
    expect(text).toContain('requireOptional("@opentelemetry/api")');
    const reaching = consumerFiles().filter(
      (file) => file.endsWith('.d.ts') && readFileSync(file, 'utf8').includes('otel-api.js'),
    );
    expect(reaching).toEqual([]);
  });

  it('reads a planted stray, so the scan is not vacuous', () => {
    expect(importedPackages("import { x } from '@modelcontextprotocol/sdk/types.js';")).toEqual([
      '@modelcontextprotocol/sdk',
    ]);
  });
});
