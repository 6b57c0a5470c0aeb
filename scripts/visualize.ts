/**
 * Generates `visualizations/` from the machine registry. Per machine: `<name>.svg` (the overview
 * picture, rendered here from `<name>.dot` by Graphviz compiled to WebAssembly: no browser, no
 * network), `<name>.mmd` (the same overview in Mermaid, for GitHub), `<name>.transitions.md` (every
 * transition), `<name>.stately.js` (Stately-importable source); and `README.md`, the index.
 *
 *   npx tsx scripts/visualize.ts           write the files
 *   npx tsx scripts/visualize.ts --check   exit 1, naming stale, missing and extra files, with the
 *                                          diff of each stale transition table to review first
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { instance, type Viz } from '@viz-js/viz';
import { OUTCOME_KINDS, teardownState } from '../src/diagrams/outcomes.js';
import { toOverviewDot } from '../src/diagrams/overview-dot.js';
import { toOverviewMermaid } from '../src/diagrams/overview-mermaid.js';
import { toStatelySource } from '../src/diagrams/stately.js';
import { countTransitions, toTransitionTable } from '../src/diagrams/table.js';
import { MACHINE_REGISTRY, type MachineRegistryEntry } from '../src/machines/registry.js';
import { lineDiff } from './line-diff.js';

/** The committed output directory. */
export const VISUALIZATIONS_DIR = fileURLToPath(new URL('../visualizations/', import.meta.url));

/** Graphviz measured the text with Verdana's metrics; readers without Verdana get its look-alikes. */
const FONT_FALLBACKS = 'Verdana,DejaVu Sans,sans-serif';

let vizInstance: Promise<Viz> | undefined;

/**
 * The overview DOT as SVG. Graphviz's layout is deterministic (same DOT, same bytes, checked by a
 * test); the one edit is the font list, so a browser without Verdana picks a font of similar width.
 */
export async function renderSvg(dot: string): Promise<string> {
  vizInstance ??= instance();
  const result = (await vizInstance).render(dot, { format: 'svg' });
  if (result.status !== 'success') {
    throw new Error(`Graphviz failed: ${result.errors.map((error) => error.message).join('; ')}`);
  }
  return result.output.replaceAll('font-family="Verdana"', `font-family="${FONT_FALLBACKS}"`);
}

const LEGEND = `How to read an overview: each box is a state, its name in bold and what it runs below
(\`invoke x\` is an actor running while the state is active, \`entry / x\` an entry action); a
framed group is a composite state, and an edge from its border applies in every state inside it.
Edges name the event (\`done\` / \`error\` of the state's actor, \`after NAME\` a named delay,
\`always\` an eventless transition) and \`[guard]\`. The bold blue line is the happy path. Every
transition into the teardown state is folded into one edge per state (dashed red when all of
them are failures), labelled by outcome kinds; the machine's own transitions (every machine's \`CANCEL\`) apply
in every state and are written once, in the caption or a note. The transition table has the rest:
every guard, action and target, in the order XState tries them.`;

const RULES = `The teardown state is the one most failure transitions run into (the final state when
there are none). A transition is a failure when its outcome kind is not \`ok\`; its kind comes
from its guard if the table below lists it, else from its first listed action, else it is the
name of an unlisted \`fail…\` / \`cancel…\` action (shown as it is); a successful edge into the
teardown with no kind shows its first action, or its event. The happy path is the
shortest path from the initial state to the teardown that takes no failure, then the first
transition XState tries, until a final state.`;

function kindTable(): string {
  const rows = Object.entries(OUTCOME_KINDS).map(([name, kind]) => `| \`${name}\` | ${kind} |`);
  return ['| Guard or action | Outcome kind |', '|---|---|', ...rows].join('\n');
}

function renderIndex(registry: readonly MachineRegistryEntry[], files: Map<string, string>) {
  const sections = registry.map((entry) => {
    const teardown = teardownState(entry.machine);
    const link = (file: string, text: string) => `[${text}](./${entry.name}${file})`;
    return [
      `## ${entry.name}`,
      '',
      entry.summary,
      '',
      `![${entry.machine.id} overview: every state by name, the happy path in bold blue, failures folded into one edge per state into ${teardown?.key ?? 'the teardown'}](./${entry.name}.svg)`,
      '',
      `- ${link('.transitions.md', `Transition table`)}: all ${countTransitions(entry.machine)} transitions, in the order XState tries them.`,
      `- Sources: ${link('.mmd', `\`${entry.name}.mmd\``)} (the overview in Mermaid), ${link('.dot', `\`${entry.name}.dot\``)} (the picture's Graphviz source), ${link('.stately.js', `\`${entry.name}.stately.js\``)} (Stately Studio: "Import from code").`,
      '',
      '<details><summary>The same overview in Mermaid</summary>',
      '',
      '```mermaid',
      (files.get(`${entry.name}.mmd`) ?? '').trimEnd(),
      '```',
      '',
      '</details>',
    ].join('\n');
  });
  return [
    '# Machine visualizations',
    '',
    'Generated by `npm run visualize` from the machine definitions; do not edit by hand.',
    '`npm run visualize:check` (and a test) fail when these files are stale.',
    '',
    LEGEND,
    '',
    ...sections.flatMap((section) => [section, '']),
    '## How the overviews are derived',
    '',
    RULES,
    '',
    kindTable(),
    '',
  ].join('\n');
}

/** Every generated file name and its content, in a stable order. */
export async function renderVisualizations(
  registry: readonly MachineRegistryEntry[] = MACHINE_REGISTRY,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of registry) {
    const dot = toOverviewDot(entry.machine);
    files.set(`${entry.name}.svg`, await renderSvg(dot));
    files.set(`${entry.name}.dot`, dot);
    files.set(`${entry.name}.mmd`, toOverviewMermaid(entry.machine));
    files.set(`${entry.name}.transitions.md`, toTransitionTable(entry.machine));
    files.set(`${entry.name}.stately.js`, toStatelySource(entry.machine));
  }
  files.set('README.md', renderIndex(registry, files));
  return files;
}

/** How the committed directory differs from what the definitions generate. */
export interface VisualizationDrift {
  /** Files whose content differs. */
  readonly stale: readonly string[];
  /** Generated files that are not committed. */
  readonly missing: readonly string[];
  /** Committed files that nothing generates. */
  readonly extra: readonly string[];
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

/** Compares `dir` with a fresh in-memory generation. */
export async function checkVisualizations(
  dir: string = VISUALIZATIONS_DIR,
  generated?: Map<string, string>,
): Promise<VisualizationDrift> {
  const expected = generated ?? (await renderVisualizations());
  const present = await listFiles(dir);
  const stale: string[] = [];
  const missing: string[] = [];
  for (const [name, content] of expected) {
    if (!present.includes(name)) missing.push(name);
    else if ((await readFile(join(dir, name), 'utf8')) !== content) stale.push(name);
  }
  const extra = present.filter((name) => !expected.has(name));
  return { stale, missing, extra };
}

/** Writes every generated file into `dir` and removes files nothing generates. */
export async function writeVisualizations(dir: string = VISUALIZATIONS_DIR): Promise<string[]> {
  const files = await renderVisualizations();
  await mkdir(dir, { recursive: true });
  for (const name of await listFiles(dir)) {
    if (!files.has(name)) await rm(join(dir, name), { recursive: true });
  }
  for (const [name, content] of files) await writeFile(join(dir, name), content);
  return [...files.keys()];
}

/**
 * What a reader is told when `visualizations/` is stale: each stale, missing and extra file; the
 * diff of each stale transition table (committed to generated: the transitions a machine lost,
 * gained or changed); and to review that diff before regenerating. Empty when nothing drifted.
 */
export async function freshnessMessage(
  drift: VisualizationDrift,
  dir: string = VISUALIZATIONS_DIR,
  generated?: Map<string, string>,
): Promise<string> {
  const problems = [
    ...drift.stale.map((name) => `stale: visualizations/${name}`),
    ...drift.missing.map((name) => `missing: visualizations/${name}`),
    ...drift.extra.map((name) => `extra: visualizations/${name}`),
  ];
  if (problems.length === 0) return '';
  const tables = drift.stale.filter((name) => name.endsWith('.transitions.md'));
  const files = tables.length === 0 ? undefined : (generated ?? (await renderVisualizations()));
  const diffs: string[] = [];
  for (const name of tables) {
    const committed = await readFile(join(dir, name), 'utf8');
    diffs.push(
      '',
      `The transition diff of visualizations/${name} (committed -, generated +):`,
      ...lineDiff(committed, files?.get(name) ?? ''),
    );
  }
  const review =
    tables.length === 0
      ? 'No transition table changed: only the drawings did.'
      : 'Review the transition diff above first: each - row is a transition as committed, each + row one the chart has now.';
  return [
    ...problems,
    ...diffs,
    '',
    review,
    'Only if every change is intended, run `npm run visualize` (and `npm run edges` for a machine',
    'whose transitions changed: its model walks pin their edges) and commit the result with the change.',
  ].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--check')) {
    const generated = await renderVisualizations();
    const drift = await checkVisualizations(VISUALIZATIONS_DIR, generated);
    const message = await freshnessMessage(drift, VISUALIZATIONS_DIR, generated);
    if (message === '') {
      console.log('visualizations/ is up to date');
      return 0;
    }
    console.error(message);
    return 1;
  }
  const written = await writeVisualizations();
  console.log(`wrote ${written.map((name) => `visualizations/${name}`).join(', ')}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
