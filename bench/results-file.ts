/**
 * `--results <file>`: writes the run as Markdown (the content of `bench/RESULTS.md`): date, the
 * machine, the Node version, the exact commands, the targets marked met or missed, and every
 * table exactly as printed.
 */
import { writeFile } from 'node:fs/promises';
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
}

/** Writes the results file to `path`. */
export async function writeResults(path: string, content: ResultsContent): Promise<void> {
  const fence = '```';
  const text = [
    '# Benchmark results',
    '',
    `- date: ${content.startedAt.toISOString()}`,
    `- machine: ${osDescription()}`,
    `- Node: ${process.version} (V8 ${process.versions.v8})`,
    `- duration: ${content.durationSeconds.toFixed(1)} s`,
    '',
    '## Commands',
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
    '## Targets',
    '',
    'Ratios are ours / alternative, measured side by side in interleaved rounds.',
    '',
    targetsMarkdown(content.targets),
    '',
    '## All tables',
    '',
    `${fence}text`,
    transcript(),
    `${fence}`,
    '',
  ].join('\n');
  await writeFile(path, text, 'utf8');
}
