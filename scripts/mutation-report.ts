/**
 * Turns Stryker's JSON report into the generated parts of `docs/mutation.md`: one row per folder
 * (score, killed, survived, timeout, no coverage, ...) and the list of mutants that lived in
 * `src/machines`. Each part sits between `<!-- mutation:<name>:start -->` and
 * `<!-- mutation:<name>:end -->`; the prose around them is written by hand and kept.
 *
 *   npx tsx scripts/mutation-report.ts                          the "after" table and survivors
 *   npx tsx scripts/mutation-report.ts --section before --report <json> [--report <json>...]
 *                                                               the "before" table
 *   npx tsx scripts/mutation-report.ts --section <name> --by file [--survivors <name>] --report ...
 *                                                               one row per file, and optionally
 *                                                               the survivors of every file
 *   ... --under <path prefix>                                    only the files under it (repeatable)
 *   npx tsx scripts/mutation-report.ts --section summary --report <oldest> ... --report <newest>
 *                 [--rename <old path>=<new path>]              one row per folder, from the latest
 *                                                               verdict of every mutant measured
 * Several reports are read as one, in the order given ({@link mergeReports}): a later report
 * overrides the verdicts of the mutants it ran (a re-run of a few lines), recognised by content.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** A mutant's verdict, as the mutation-testing-report-schema spells it. */
export type MutantStatus =
  | 'Killed'
  | 'Survived'
  | 'NoCoverage'
  | 'Timeout'
  | 'CompileError'
  | 'RuntimeError'
  | 'Ignored'
  | 'Pending';

/** The part of a mutant the report uses. */
export interface ReportedMutant {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: MutantStatus;
  readonly location: {
    readonly start: { readonly line: number; readonly column: number };
    readonly end: { readonly line: number; readonly column: number };
  };
}

/** The part of Stryker's JSON report (schema 1 and 2) the report uses. */
export interface StrykerJsonReport {
  readonly files: Readonly<
    Record<string, { readonly source: string; readonly mutants: readonly ReportedMutant[] }>
  >;
}

/** Counts of one folder; `score` is (killed + timeout) / (killed + timeout + survived + no coverage). */
export interface FolderScore {
  readonly folder: string;
  readonly killed: number;
  readonly survived: number;
  readonly timeout: number;
  readonly noCoverage: number;
  readonly ignored: number;
  readonly errors: number;
  readonly score: number;
}

/** The folders mutated, in the order of the table. */
export const MUTATED_FOLDERS = ['src/machines', 'src/wire', 'src/openapi'] as const;

function srcPathOf(file: string): string {
  const normalised = file.replaceAll('\\', '/');
  const at = normalised.lastIndexOf('src/');
  return at === -1 ? normalised : normalised.slice(at);
}

function folderOf(file: string): string {
  const normalised = file.replaceAll('\\', '/');
  return MUTATED_FOLDERS.find((folder) => normalised.includes(`${folder}/`)) ?? 'other';
}

/** Pure: the per-folder counts of a report (folders without a mutant are left out). */
export function folderScores(report: StrykerJsonReport): FolderScore[] {
  return groupScores(report, folderOf, [...MUTATED_FOLDERS, 'other']);
}

/** Pure: the counts of each file of a report, by path from `src/`, in path order, then their total. */
export function fileScores(report: StrykerJsonReport): FolderScore[] {
  const files = Object.keys(report.files).map(srcPathOf).sort();
  return [
    ...groupScores(report, srcPathOf, files),
    ...groupScores(report, () => 'all of the above', ['all of the above']),
  ];
}

function groupScores(
  report: StrykerJsonReport,
  groupOf: (file: string) => string,
  order: readonly string[],
): FolderScore[] {
  const byFolder = new Map<string, MutantStatus[]>();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const statuses = byFolder.get(groupOf(file)) ?? [];
    statuses.push(...mutants.map((mutant) => mutant.status));
    byFolder.set(groupOf(file), statuses);
  }
  return order.flatMap((folder) => {
    const statuses = byFolder.get(folder);
    if (statuses === undefined) return [];
    const count = (...wanted: MutantStatus[]): number =>
      statuses.filter((status) => wanted.includes(status)).length;
    const killed = count('Killed');
    const timeout = count('Timeout');
    const survived = count('Survived');
    const noCoverage = count('NoCoverage');
    const valid = killed + timeout + survived + noCoverage;
    return [
      {
        folder,
        killed,
        survived,
        timeout,
        noCoverage,
        ignored: count('Ignored'),
        errors: count('CompileError', 'RuntimeError'),
        score: valid === 0 ? 0 : (killed + timeout) / valid,
      },
    ];
  });
}

/** Pure: the folder (or file) table in Markdown; `label` names the first column. */
export function scoreTable(scores: readonly FolderScore[], label = 'folder'): string {
  const rows = scores.map(
    (row) =>
      `| ${row.folder} | ${(row.score * 100).toFixed(1)} % | ${row.killed} | ${row.survived} | ` +
      `${row.timeout} | ${row.noCoverage} | ${row.ignored} | ${row.errors} |`,
  );
  return [
    `| ${label} | score | killed | survived | timeout | no coverage | ignored (static) | compile errors |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

function originalText(source: string, mutant: ReportedMutant): string {
  const lines = source.split('\n');
  const { start, end } = mutant.location;
  const text =
    start.line === end.line
      ? (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1)
      : `${(lines[start.line - 1] ?? '').slice(start.column - 1)} …`;
  return text.replace(/\s+/g, ' ').trim();
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().replaceAll('|', '\\|').replaceAll('`', "'");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

/**
 * Pure: one row per mutant that lived (survived or had no test reach it), in `folder` (its path
 * from the folder), or in every file (its path from `src/`) when `folder` is `null`.
 */
export function survivorTable(
  report: StrykerJsonReport,
  folder: string | null = 'src/machines',
): string {
  const where = (file: string): string =>
    folder === null ? srcPathOf(file) : srcPathOf(file).slice(folder.length + 1);
  const rows = Object.entries(report.files)
    .filter(([file]) => folder === null || folderOf(file) === folder)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, { source, mutants }]) =>
      mutants
        .filter((mutant) => mutant.status === 'Survived' || mutant.status === 'NoCoverage')
        .sort((a, b) => a.location.start.line - b.location.start.line)
        .map(
          (mutant) =>
            `| ${where(file)}:${mutant.location.start.line} | ` +
            `${mutant.mutatorName} | \`${shorten(originalText(source, mutant))}\` | ` +
            `\`${shorten(mutant.replacement ?? '')}\` | ${mutant.status} |`,
        ),
    );
  if (rows.length === 0) return 'None.';
  return [
    '| where | mutator | original | replacement | status |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The text of the line a mutant starts on, trimmed: what stays of it when lines around move. */
function lineOf(source: string, mutant: ReportedMutant): string {
  return (source.split('\n')[mutant.location.start.line - 1] ?? '').trim();
}

/**
 * Where a mutant is, by content (its line's text, the text it replaces, its mutator and
 * replacement), so that the same mutant is recognised in a source where lines moved; the n-th of
 * identical ones in a file is told apart by `n`.
 */
function mutantKeys(
  source: string,
  mutants: readonly ReportedMutant[],
): Map<string, ReportedMutant> {
  const keyed = new Map<string, ReportedMutant>();
  for (const mutant of mutants) {
    const key = `${lineOf(source, mutant)}\u0000${originalText(source, mutant)}\u0000${mutant.mutatorName}\u0000${mutant.replacement ?? ''}`;
    let n = 0;
    while (keyed.has(`${key}\u0000${n}`)) n += 1;
    keyed.set(`${key}\u0000${n}`, mutant);
  }
  return keyed;
}

/**
 * Pure: `reports` read as one, oldest first, each file under its path from `src/` (after
 * `renames`, old path to new, for a moved file). A later report's mutants take the place of the
 * same mutants of earlier ones (recognised by content: {@link mutantKeys}), so a re-run of some
 * lines (`--mutate 'file:12-14'`) overrides only those verdicts; an earlier mutant the later
 * report did not run is kept while its line is still in the later source, and dropped with its
 * line. Only the counts are exact across sources: a kept mutant's location is in its own source,
 * so list survivors (`--survivors`) only from reports of one source.
 */
export function mergeReports(
  reports: readonly StrykerJsonReport[],
  renames: Readonly<Record<string, string>> = {},
): StrykerJsonReport {
  const files = new Map<string, { source: string; mutants: Map<string, ReportedMutant> }>();
  for (const report of reports) {
    for (const [file, { source, mutants }] of Object.entries(report.files)) {
      const path = renames[srcPathOf(file)] ?? srcPathOf(file);
      const later = mutantKeys(source, mutants);
      const known = files.get(path);
      const lines = new Set(source.split('\n').map((line) => line.trim()));
      const kept = [...(known?.mutants ?? [])].filter(
        ([key, mutant]) =>
          !later.has(key) &&
          (known?.source === source || lines.has(lineOf(known?.source ?? '', mutant))),
      );
      files.set(path, { source, mutants: new Map([...kept, ...later]) });
    }
  }
  return {
    files: Object.fromEntries(
      [...files].map(([path, { source, mutants }]) => [
        path,
        { source, mutants: [...mutants.values()] },
      ]),
    ),
  };
}

/** Pure: `document` with the text between the markers of `section` replaced by `body`. */
export function replaceSection(document: string, section: string, body: string): string {
  const start = `<!-- mutation:${section}:start -->`;
  const end = `<!-- mutation:${section}:end -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from === -1 || to < from) {
    throw new Error(`docs/mutation.md has no ${start} ... ${end} pair`);
  }
  return `${document.slice(0, from + start.length)}\n${body}\n${document.slice(to)}`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      report: { type: 'string', multiple: true, default: ['reports/mutation/mutation.json'] },
      section: { type: 'string', default: 'after' },
      by: { type: 'string', default: 'folder' },
      survivors: { type: 'string' },
      rename: { type: 'string', multiple: true, default: [] },
      under: { type: 'string', multiple: true, default: [] },
      doc: {
        type: 'string',
        default: fileURLToPath(new URL('../docs/mutation.md', import.meta.url)),
      },
    },
  });
  const renames = Object.fromEntries(
    values.rename.map((pair) => {
      const [from, to] = pair.split('=');
      if (from === undefined || to === undefined)
        throw new Error(`--rename is old=new, not ${pair}`);
      return [from, to];
    }),
  );
  const merged = mergeReports(
    values.report.map((file) => JSON.parse(readFileSync(file, 'utf8')) as StrykerJsonReport),
    renames,
  );
  const under = values.under;
  const report: StrykerJsonReport = {
    files: Object.fromEntries(
      Object.entries(merged.files).filter(
        ([file]) => under.length === 0 || under.some((prefix) => file.startsWith(prefix)),
      ),
    ),
  };
  if (values.by !== 'folder' && values.by !== 'file') {
    throw new Error(`--by is folder or file, not ${values.by}`);
  }
  const scores = values.by === 'file' ? fileScores(report) : folderScores(report);
  let document = readFileSync(values.doc, 'utf8');
  document = replaceSection(document, values.section, scoreTable(scores, values.by));
  if (values.survivors !== undefined) {
    document = replaceSection(document, values.survivors, survivorTable(report, null));
  } else if (values.section === 'after') {
    document = replaceSection(document, 'survivors', survivorTable(report));
  }
  writeFileSync(values.doc, document);
  for (const row of scores) {
    console.log(`${row.folder}: ${(row.score * 100).toFixed(1)} %`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
