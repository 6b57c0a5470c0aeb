/**
 * Regenerates or checks the model walks' edge sets, `test/machines/<m>/<m>.edges.txt`: runs the
 * machine's model tests that pin them (those calling `expectPinnedEdges`), which write their
 * sections when `STITCHKIT_WRITE_EDGES=1`. Regenerate only after reviewing what changed: the
 * tests print the diff of each section, and the transition table of the chart
 * (`visualizations/<m>.transitions.md`) says which rows moved.
 *
 *   npx tsx scripts/edges.ts                    rewrite every machine's edge set
 *   npx tsx scripts/edges.ts mcp-operation      rewrite one machine's (names from the registry)
 *   npx tsx scripts/edges.ts --check [m ...]    run the same tests without writing (exit 1 on drift)
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MACHINE_REGISTRY } from '../src/machines/registry.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** What the model tests read to write their sections instead of comparing them. */
const WRITE_ENV = 'STITCHKIT_WRITE_EDGES';

/** The model tests of a machine that pin its edge set. */
function pinningTests(machineName: string): string[] {
  const dir = join(ROOT, 'test', 'machines', machineName);
  return readdirSync(dir)
    .filter((file) => file.endsWith('-model.test.ts'))
    .map((file) => join(dir, file))
    .filter((path) => readFileSync(path, 'utf8').includes('expectPinnedEdges'));
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const known = MACHINE_REGISTRY.map((entry) => entry.name);
  const asked = argv.filter((arg) => !arg.startsWith('--'));
  const unknown = asked.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    console.error(`unknown machine(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
    return 2;
  }
  const machines = asked.length > 0 ? asked : known;
  const files = machines.flatMap(pinningTests);
  if (!check) {
    // Written from scratch, so a model that is gone leaves no section behind.
    for (const name of machines) {
      rmSync(join(ROOT, 'test', 'machines', name, `${name}.edges.txt`), { force: true });
    }
  }
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(
    process.execPath,
    [vitest, 'run', ...files.map((file) => relative(ROOT, file))],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, [WRITE_ENV]: check ? '0' : '1' },
    },
  );
  const status = run.status ?? 1;
  if (!check && status === 0) {
    const written = machines.map((name) => `test/machines/${name}/${name}.edges.txt`);
    console.log(
      `wrote ${written.join(', ')}\nReview \`git diff -- ${written.join(' ')}\` with the transition diff (\`git diff visualizations/\`) before committing.`,
    );
  }
  return status;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
