/**
 * Section 13, catalog search over GitHub's document (decision 0045): recall by query kind on the
 * labelled set in `test/fixtures/catalog-queries/` (the tuning set, its two halves, and the fresh
 * set that is only measured), what a search-mode mount costs (the mount, then the first search,
 * which builds the index), the time of one `search_tools` call over the 1,202 tools, and the
 * footprint of both modes (estimated, and o200k through the gpt-tokenizer dev dependency). Ours
 * is the built package; no server.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  type AnyRuntimeToolDefinition,
  estimateTokens,
  mountAgent,
  runTool,
  searchCatalog,
  toolInputJsonSchema,
} from 'stitchkit-transport/binding';
import { defineOpenApiConnection, mountConnections } from 'stitchkit-transport/connections';
import {
  answerable,
  githubDocument,
  inPart,
  QUERIES,
  type QueryKind,
  type QueryPart,
  recallOf,
  searchedNames,
} from '../test/fixtures/catalog-queries/github-catalog.js';
import { fmt, median, p95, printTable } from './stats.js';
import { log } from './transcript.js';

/** What the section measured, for the targets line. */
export interface CatalogSearchResult {
  readonly tools: number;
  readonly queryMedianMs: number;
  readonly queryP95Ms: number;
}

/** The target: one search over 1,200 tools in at most this long. */
export const QUERY_TARGET_MS = 2;

const KINDS: readonly QueryKind[] = ['direct', 'paraphrase', 'indirect'];

/**
 * The parts of the query set recall is printed for: the tuning set (the first 168 queries, both
 * halves, tuned on), each half, the fresh set, written later and only measured, and the second
 * to fifth fresh sets, each written beside or after a vocabulary and measured once before it
 * decided anything (the last is the honest figure; the set's README).
 */
const PARTS: readonly {
  readonly label: string;
  readonly part: QueryPart;
  /** Whether an "all kinds" row is printed for it. */
  readonly summed: boolean;
}[] = [
  { label: 'tuning set', part: 'tuning', summed: true },
  { label: 'tuned half', part: 'tune', summed: false },
  { label: 'held-out half', part: 'held-out', summed: false },
  { label: 'fresh set', part: 'fresh', summed: true },
  { label: 'second fresh set', part: 'fresh-2', summed: true },
  { label: 'third fresh set', part: 'fresh-3', summed: true },
  { label: 'fourth fresh set', part: 'fresh-4', summed: true },
  { label: 'fifth fresh set', part: 'fresh-5', summed: true },
];

async function searchOnce(search: AnyRuntimeToolDefinition, query: string, limit: number) {
  return searchedNames(await runTool(search, { query, limit }, { source: 'internal' }));
}

/** A tool as a provider sends it to the model. */
function shown(tool: AnyRuntimeToolDefinition): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: toolInputJsonSchema(tool),
  });
}

function footprint(tools: readonly AnyRuntimeToolDefinition[]) {
  let estimated = 0;
  let o200k = 0;
  for (const tool of tools) {
    const text = shown(tool);
    estimated += estimateTokens(JSON.parse(text));
    o200k += countTokens(text);
  }
  return { estimated, o200k };
}

/** Runs the section: `rounds` passes over the query set for the timings. */
export async function runCatalogSearch(options: { rounds: number }): Promise<CatalogSearchResult> {
  const document = githubDocument();
  const mountStart = performance.now();
  const tools = await mountConnections(
    [defineOpenApiConnection({ name: 'github', spec: document })],
    {
      onSkippedTool: () => undefined,
    },
  );
  const mountMs = performance.now() - mountStart;
  const agentStart = performance.now();
  const agent = mountAgent({ runtimeTools: tools, catalog: { mode: 'search' } });
  const agentMs = performance.now() - agentStart;
  const [search] = searchCatalog(tools);
  if (search === undefined) throw new Error('no search_tools');
  const firstStart = performance.now();
  await searchOnce(search, 'warm the index', 8);
  const firstMs = performance.now() - firstStart;

  const actionOf = new Map(tools.map((tool) => [tool.name, tool.identity.action]));
  const ranker = async (query: string, limit: number) =>
    (await searchOnce(search, query, limit)).map((name) => actionOf.get(name) ?? name);
  const scored = answerable(QUERIES, new Set(tools.map((tool) => tool.identity.action)));
  const rows: string[][] = [];
  for (const kind of KINDS) {
    for (const { label, part } of PARTS) {
      const queries = scored.filter((query) => query.kind === kind && inPart(query, part));
      const recall = await recallOf(ranker, queries);
      rows.push([
        kind,
        label,
        String(recall.queries),
        fmt(recall.at1),
        fmt(recall.at5),
        fmt(recall.at10),
      ]);
    }
  }
  for (const { label, part } of PARTS.filter((entry) => entry.summed)) {
    const all = await recallOf(
      ranker,
      scored.filter((query) => inPart(query, part)),
    );
    rows.push(['all', label, String(all.queries), fmt(all.at1), fmt(all.at5), fmt(all.at10)]);
  }
  log(
    `\nQuery set: ${QUERIES.length} queries, ${scored.length} with a mounted answer (the others' answers are outside the OpenAPI subset); recall = the share of queries with an answer in the top k:`,
  );
  printTable(['kind', 'queries', 'n', 'recall@1', 'recall@5', 'recall@10'], rows, 2);

  const times: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    for (const query of scored) {
      const start = performance.now();
      await searchOnce(search, query.query, 8);
      times.push(performance.now() - start);
    }
  }
  const inline = footprint(tools);
  const meta = footprint(searchCatalog(tools));
  log(`\nMount and search over ${tools.length} tools (ms):`);
  printTable(
    ['step', 'ms'],
    [
      ['mountConnections (parsed document)', fmt(mountMs, 1)],
      ["mountAgent, catalog: { mode: 'search' }", fmt(agentMs, 1)],
      ['first search_tools call (builds the index)', fmt(firstMs, 1)],
      [`search_tools, median of ${times.length}`, fmt(median(times), 3)],
      ['search_tools, p95', fmt(p95(times), 3)],
    ],
  );
  log('\nFootprint (what the model is shown before its first message, tokens):');
  printTable(
    ['mode', 'tools shown', 'estimated', 'o200k'],
    [
      ['inline', String(tools.length), String(inline.estimated), String(inline.o200k)],
      ['search', String(Object.keys(agent).length), String(meta.estimated), String(meta.o200k)],
    ],
  );
  return { tools: tools.length, queryMedianMs: median(times), queryP95Ms: p95(times) };
}
