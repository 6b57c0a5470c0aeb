// Builds `dist/` (decision 0048): the TypeScript compiler writes the declarations and the
// JavaScript of every module, then esbuild bundles the JavaScript of each entry point, with the
// code entry points share split into `dist/chunks/`, and the per-module JavaScript is removed.
// Node's module loader pays about half a millisecond for each module it loads: 173 modules made
// most of the library's import time; a handful of bundled files load in a fraction of it.
// Dependencies stay external (`import` as written), so a host's undici, zod and XState are the
// ones it installed, and undici is still loaded only on the first request (a chunk of its own).
// The declarations are left as the compiler wrote them, one per module.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const DIST = 'dist';
const STAGING = 'dist-bundle.tmp';

/**
 * The entry points: the package's exports and its executable, and the two internal modules the
 * repository's own checks load from the build (the bench's SSE reader and fence; the test that the
 * built client finds its `package.json`). Shared code lands in chunks, never in two entries.
 */
const ENTRIES = [
  'index',
  'connections/index',
  'operations/index',
  'machines/index',
  'diagrams/index',
  'binding/index',
  'cli/bin',
  'wire/index',
  'wire/mcp/client-info',
];

rmSync(DIST, { recursive: true, force: true });
rmSync(STAGING, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
  {
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

await build({
  entryPoints: ENTRIES.map((entry) => join(DIST, `${entry}.js`)),
  outdir: STAGING,
  outbase: DIST,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: true,
  logLevel: 'warning',
});

/** Every file under `dir`, relative to it. */
function filesUnder(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}

for (const file of filesUnder(DIST)) {
  if (file.endsWith('.js') || file.endsWith('.js.map')) rmSync(join(DIST, file));
}
for (const file of filesUnder(STAGING)) {
  const target = join(DIST, file);
  mkdirSync(dirname(target), { recursive: true });
  renameSync(join(STAGING, file), target);
}
rmSync(STAGING, { recursive: true, force: true });
