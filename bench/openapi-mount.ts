/**
 * Section 8, the OpenAPI mount: what a host pays to turn a parsed OpenAPI document into tools.
 * Two documents: GitHub's real one (`openapi-github.ts`, fetched and cached on demand) and a
 * generated 2,000-operation one (`openapi-generated.ts`). Each is measured in client children of
 * its own (`openapi-mount-child.ts`, `--expose-gc`), one after the other and interleaved by
 * document (child 1 of each, then child 2 of each…), so load changes hit both alike; the spread
 * over the children is printed beside each median. No server is involved: the document is given
 * to `defineOpenApiConnection` as an already-parsed object, as a host that holds it would.
 */
import { runClientChild } from './child-run.js';
import type { Counts } from './counts.js';
import { GENERATED_PATHS, writeGeneratedDocument } from './openapi-generated.js';
import { githubDocument } from './openapi-github.js';
import type { MountReport } from './openapi-mount-child.js';
import { fmt, median, p95, printTable } from './stats.js';
import { log } from './transcript.js';

/** Which document. */
export type OpenApiDocumentId = 'github' | 'generated';

/** One document's measurements: a report per child, none when it was not measured. */
export interface OpenApiDocumentResult {
  readonly id: OpenApiDocumentId;
  readonly title: string;
  readonly reports: readonly MountReport[];
  /** Why there are no reports. */
  readonly notMeasured?: string;
}

/** Per-child figures the tables and targets read. */
export const warmMountMedian = (report: MountReport): number => median(report.warmMountMs);
export const parseMedian = (report: MountReport): number => median(report.parseMs);

/** The median over children of `pick`, with the range: `104.2 (101.0–110.3)`. */
function spread(
  reports: readonly MountReport[],
  pick: (report: MountReport) => number,
  digits = 1,
) {
  const values = reports.map(pick);
  if (values.length < 2) return fmt(values[0] ?? Number.NaN, digits);
  return `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;
}

const mib = (bytes: number) => fmt(bytes / 1024 / 1024, 1);

function skippedText(skipped: Readonly<Record<string, number>>): string {
  const entries = Object.entries(skipped).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0
    ? 'none'
    : entries.map(([reason, count]) => `${reason} ${count}`).join(', ');
}

function printTables(results: readonly OpenApiDocumentResult[], children: number): void {
  const measured = results.filter((result) => result.reports.length > 0);
  const spreadNote = children > 1 ? `: median over ${children} children (min–max)` : '';
  log('\nDocuments and what mounted (first mount of the first child):');
  printTable(
    ['document', 'MB', 'operations', 'tools', 'mountAgent tools', 'skipped by reason', 'schema MB'],
    results.map((result) => {
      const first = result.reports[0];
      if (first === undefined)
        return [result.title, '-', '-', '-', '-', result.notMeasured ?? '', '-'];
      return [
        result.title,
        mib(first.bytes),
        String(first.operations),
        String(first.tools),
        String(first.agentTools),
        skippedText(first.skipped),
        mib(first.schemaBytes),
      ];
    }),
    1,
  );
  if (measured.length === 0) return;
  log(`\nTime in ms${spreadNote}; mount = defineOpenApiConnection + mountConnections:`);
  printTable(
    [
      'document',
      'JSON.parse',
      'mount cold',
      'mount warm median',
      'warm p95',
      'warm, GC before',
      'mount/parse',
      'mountAgent cold',
      'mountAgent warm',
    ],
    measured.map(({ title, reports }) => [
      title,
      spread(reports, parseMedian),
      spread(reports, (report) => report.coldMountMs),
      spread(reports, warmMountMedian),
      spread(reports, (report) => p95(report.warmMountMs)),
      spread(reports, (report) => median(report.gcMountMs)),
      spread(reports, (report) => warmMountMedian(report) / parseMedian(report), 2),
      spread(reports, (report) => report.coldAgentMs),
      spread(reports, (report) => median(report.warmAgentMs)),
    ]),
  );
  log(
    `\nHeap in MiB${spreadNote}: heapUsed right after the step minus right before it (forced GC before, none during); retained after forced GC:`,
  );
  printTable(
    [
      'document',
      'parsed document',
      'mount cold',
      'mount warm (GC before)',
      'mountAgent cold',
      'tools + ToolSet retained',
      'max RSS',
    ],
    measured.map(({ title, reports }) => [
      title,
      spread(reports, (report) => report.documentHeap / 1024 / 1024),
      spread(reports, (report) => report.coldMountHeap / 1024 / 1024),
      spread(reports, (report) => median(report.gcMountHeap) / 1024 / 1024),
      spread(reports, (report) => report.coldAgentHeap / 1024 / 1024),
      spread(reports, (report) => report.retainedHeap / 1024 / 1024),
      spread(reports, (report) => report.maxRssKib / 1024),
    ]),
  );
}

/** Prepares both documents, runs the children and prints the tables; GitHub's result first. */
export async function runOpenApiMount(
  counts: Counts['openapi'],
  options: { readonly quick: boolean },
): Promise<OpenApiDocumentResult[]> {
  const generated = await writeGeneratedDocument();
  log(
    `generated: ${GENERATED_PATHS.toLocaleString('en-US')} paths x (get, post), ${fmt(generated.bytes / 1024, 0)} KiB, SHA-256 ${generated.sha256.slice(0, 16)}…`,
  );
  const github = await githubDocument(options);
  log(
    'path' in github
      ? `github: ${github.fetched ? 'fetched into' : 'cached at'} ${github.path} (size and SHA-256 checked)`
      : `github: ${github.notMeasured}`,
  );
  const documents = [
    { id: 'github' as const, title: 'GitHub api.github.com (3.0.3)', source: github },
    {
      id: 'generated' as const,
      title: 'generated, 2,000 operations',
      source: { path: generated.path, fetched: false },
    },
  ];
  const reports = new Map<OpenApiDocumentId, MountReport[]>(documents.map(({ id }) => [id, []]));
  log(
    `${counts.children} child(ren) per document, each: ${counts.parses} JSON.parse, 1 cold mount (GC before), ${counts.warmMounts} warm back to back, ${counts.gcMounts} warm with a forced GC before each`,
  );
  for (let child = 0; child < counts.children; child++) {
    for (const { id, source } of documents) {
      if (!('path' in source)) continue;
      const line = await runClientChild({
        nodeFlags: ['--expose-gc'],
        script: 'openapi-mount-child.ts',
        args: [
          source.path,
          id,
          String(counts.warmMounts),
          String(counts.gcMounts),
          String(counts.parses),
        ],
        // Generous: a stuck child must not hang the run, a slow machine must not fail it.
        timeoutMs: 60_000 + (counts.warmMounts + counts.gcMounts) * 5_000,
      });
      reports.get(id)?.push(JSON.parse(line) as MountReport);
    }
  }
  const results = documents.map(({ id, title, source }) => ({
    id,
    title,
    reports: reports.get(id) ?? [],
    ...('notMeasured' in source ? { notMeasured: source.notMeasured } : {}),
  }));
  printTables(results, counts.children);
  return results;
}
