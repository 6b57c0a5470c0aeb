import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// `STITCHKIT_AI_DIR=<dir>` runs the suites against another `ai` package (scripts/runtimes.sh:
// `ai` 7 on Node >= 22): `ai` and each of its subpaths resolve to that package's ES module files.
const aiDir = process.env.STITCHKIT_AI_DIR;

function aiAliases(dir: string): { find: RegExp; replacement: string }[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import?: string; default?: string }>;
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const file = typeof target === 'string' ? target : (target.import ?? target.default);
    if (file === undefined || !file.endsWith('.js')) return [];
    const name = subpath === '.' ? 'ai' : `ai/${subpath.slice(2)}`;
    return [
      { find: new RegExp(`^${name.replaceAll('/', '\\/')}$`), replacement: resolve(dir, file) },
    ];
  });
}

export default defineConfig({
  ...(aiDir === undefined ? {} : { resolve: { alias: aiAliases(aiDir) } }),
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Suites start loopback servers on OS-assigned ports; forks keep their sockets apart.
    pool: 'forks',
    // A process warning fails the file it happened in; vitest already fails the run on an
    // unhandled rejection or an uncaught exception (dangerouslyIgnoreUnhandledErrors stays off).
    setupFiles: ['test/support/process-guard.ts'],
  },
});
