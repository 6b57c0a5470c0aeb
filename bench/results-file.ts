/**
 * `--results <file>`: writes the run as Markdown (the content of `bench/RESULTS.md`): date, the
 * machine, the Node version, the exact commands, the targets marked met or missed, and every
 * table exactly as printed. A whole run replaces the file; an `--only` run replaces (or appends)
 * only its own section of the file, between markers, and leaves the rest as it was.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { osDescription } from './stats.js';
import type { TargetRow } from './targets.js';
import { targetsMarkdown } from './targets.js';
import { recordedCommands, transcript } from './transcript.js';

/** What the results file is written from. */
export interface ResultsContent {
  readonly startedAt: Date;
  readonly command: string;
  readonly durationSeconds: number;
  readonly targets: readonly TargetRow[];
  /** The seed of the alternatives' order (`--seed` replays it). */
  readonly seed: number;
  /** The `--only` value, when the run was one group of sections. */
  readonly only?: string | undefined;
}

const ONLY_TITLES: Readonly<Record<string, string>> = {
  mcp: 'MCP client sections (1 to 7)',
  openapi: 'OpenAPI mount and per call (sections 8 and 9)',
  '2026': 'MCP 2026-07-28 against the v2 SDK (sections 10 to 12)',
  load: 'Load curve, 1 to 10,000 calls in flight (section 14)',
  cold: 'Cold start in fresh processes (section 15)',
};

/** The run's lines, its headings at `level` (`##` for a whole file, `###` inside a section). */
function runLines(content: ResultsContent, level: string): string[] {
  const fence = '```';
  return [
    `- date: ${content.startedAt.toISOString()}`,
    `- machine: ${osDescription()}`,
    `- Node: ${process.version} (V8 ${process.versions.v8})`,
    `- duration: ${content.durationSeconds.toFixed(1)} s`,
    `- order seed: ${content.seed} (\`--seed ${content.seed}\` replays the alternatives' order)`,
    '',
    `${level} Commands`,
    '',
    `${fence}sh`,
    content.command,
    `${fence}`,
    '',
    'Child processes it started:',
    '',
    `${fence}sh`,
    ...recordedCommands(),
    `${fence}`,
    '',
    `${level} Targets`,
    '',
    content.only === 'openapi'
      ? 'Read from the tables below: the warm mount median over children, and per child the warm mount median / JSON.parse median.'
      : 'Ratios are ours / alternative, measured side by side in interleaved rounds.',
    '',
    targetsMarkdown(content.targets),
    '',
    `${level} All tables`,
    '',
    `${fence}text`,
    transcript(),
    `${fence}`,
    '',
  ];
}

/** `text` with the section between `start` and `end` replaced by `section`, or appended. */
function spliceSection(text: string, start: string, end: string, section: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from >= 0 && to >= 0) return text.slice(0, from) + section + text.slice(to + end.length);
  return `${text.trimEnd()}\n\n${section}\n`;
}

/** Writes the results file to `path`. */
export async function writeResults(path: string, content: ResultsContent): Promise<void> {
  const title = '# Benchmark results';
  if (content.only === undefined) {
    await writeFile(path, [title, '', ...runLines(content, '##')].join('\n'), 'utf8');
    return;
  }
  const start = `<!-- bench --only ${content.only}: start -->`;
  const end = `<!-- bench --only ${content.only}: end -->`;
  const heading = `## ${ONLY_TITLES[content.only] ?? content.only} (\`--only ${content.only}\`)`;
  const section = [start, heading, '', ...runLines(content, '###'), end].join('\n');
  const existing = await readFile(path, 'utf8').catch(() => `${title}\n`);
  await writeFile(path, spliceSection(existing, start, end, section), 'utf8');
}
