/**
 * Catalog search over GitHub's document (1,202 tools) against the labelled query set in
 * `test/fixtures/catalog-queries/` (its README says how it was written and kept honest): the set's
 * own rules checked mechanically, recall per kind on the tuning set, each of its halves and the
 * fresh set pinned exactly at what the ranking measures, a handful of exact rankings, and the
 * footprint of both modes.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  estimateTokens,
  runTool,
  searchCatalog,
  toolInputJsonSchema,
} from '../../../src/binding/index.js';
import { searchDocumentOf } from '../../../src/binding/mounts/search-ranking.js';
import { termsOf } from '../../../src/binding/mounts/search-text.js';
import { TABLES_WRITTEN_APART } from '../../../src/binding/mounts/search-vocabulary.js';
import { defineOpenApiConnection, mountConnections } from '../../../src/connections/index.js';
import {
  answerable,
  githubDocument,
  inPart,
  type LabelledQuery,
  QUERIES,
  type QueryHalf,
  type QueryKind,
  recallOf,
  searchedNames,
} from '../../fixtures/catalog-queries/github-catalog.js';

let tools: AnyRuntimeToolDefinition[] = [];
let search: AnyRuntimeToolDefinition;
let scored: LabelledQuery[] = [];
/** Each tool's name to its action (the operationId the labels name). */
let actionOf: ReadonlyMap<string, string> = new Map();

beforeAll(async () => {
  tools = [
    ...(await mountConnections(
      [defineOpenApiConnection({ name: 'github', spec: githubDocument() })],
      { onSkippedTool: () => undefined },
    )),
  ];
  const meta = searchCatalog(tools)[0];
  if (meta === undefined) throw new Error('no search_tools');
  search = meta;
  scored = answerable(QUERIES, new Set(tools.map((tool) => tool.identity.action)));
  actionOf = new Map(tools.map((tool) => [tool.name, tool.identity.action]));
});

/** The operationIds `search_tools` answers for `query`, best first, as the model receives them. */
async function ranked(query: string, limit: number): Promise<string[]> {
  const names = searchedNames(await runTool(search, { query, limit }, { source: 'internal' }));
  return names.map((name) => actionOf.get(name) ?? name);
}

// The set's own check, independent of the ranking's rules: function words, a crude stem, and
// the abbreviations a user writes for a summary's words ("repo" is "repository").
const FUNCTION_WORDS = new Set(
  (
    'a an the of to for in on at by with from into over as and or is are was were be been it its ' +
    'this that these those my our your me i we you he him she her they them their who whom which ' +
    'what when where why how do does did can could should would will may might must not no any ' +
    'all every each some someone something anything everything own else up out off so than then ' +
    'there here too very just about again before after under between more most other such only same'
  ).split(' '),
);
const ABBREVIATIONS: Record<string, string> = {
  repo: 'repository',
  repos: 'repository',
  org: 'organization',
  orgs: 'organization',
  pr: 'pull',
  prs: 'pull',
};

function contentWords(text: string): Set<string> {
  const crudeStem = (word: string) => {
    const full = ABBREVIATIONS[word] ?? word;
    if (full.length > 4 && full.endsWith('ies')) return `${full.slice(0, -3)}y`;
    if (full.length > 4 && full.endsWith('ing')) return full.slice(0, -3);
    if (full.length > 3 && full.endsWith('ed')) return full.slice(0, -2);
    if (full.length > 3 && full.endsWith('es')) return full.slice(0, -2);
    if (full.length > 3 && full.endsWith('s')) return full.slice(0, -1);
    return full;
  };
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '' && !FUNCTION_WORDS.has(word))
      .map(crudeStem),
  );
}

describe('the query set', () => {
  it('holds 168 queries in three kinds and two halves, and five fresh sets of 100 written later', () => {
    const count = (kind: QueryKind, half?: QueryHalf) =>
      QUERIES.filter((query) => query.kind === kind && (half === undefined || query.split === half))
        .length;
    expect(QUERIES.length).toBe(668);
    expect([count('direct'), count('paraphrase'), count('indirect')]).toEqual([160, 255, 253]);
    expect([
      count('direct', 'tune'),
      count('paraphrase', 'tune'),
      count('indirect', 'tune'),
    ]).toEqual([30, 28, 27]);
    expect([
      count('direct', 'held-out'),
      count('paraphrase', 'held-out'),
      count('indirect', 'held-out'),
    ]).toEqual([30, 27, 26]);
    for (const fresh of ['fresh', 'fresh-2', 'fresh-3', 'fresh-4', 'fresh-5'] as const) {
      expect([
        count('direct', fresh),
        count('paraphrase', fresh),
        count('indirect', fresh),
      ]).toEqual([20, 40, 40]);
    }
  });

  it('holds no query twice', () => {
    const texts = QUERIES.map((query) => query.query.toLowerCase());
    expect(texts.filter((text, index) => texts.indexOf(text) !== index)).toEqual([]);
  });

  it('labels every query with operationIds of the document, and 658 have a mounted answer', () => {
    const summaries = summariesOf(githubDocument());
    const unknown = QUERIES.flatMap((query) => query.answers).filter((id) => !summaries.has(id));
    expect(unknown).toEqual([]);
    // The other ten are answered only by operations the mount refuses (outside the subset).
    expect(QUERIES.filter((query) => !scored.includes(query)).map((query) => query.query)).toEqual([
      'upload a release asset',
      'list dependabot alerts for a repository',
      'is it safe to upgrade lodash in our project, any known vulnerabilities',
      'put the compiled binaries on the download page of v2',
      'get an organization migration status',
      'list items for an organization owned project',
      "every vulnerable-package warning across all of acme's projects",
      'which export bundles has acme requested recently',
      "which developer-issued scoped credentials can currently reach acme's repositories",
      "what cards are on mona's personal roadmap board 2",
    ]);
  });

  it("shares no content word between a paraphrase and its answers' summaries", () => {
    const summaries = summariesOf(githubDocument());
    const shared = QUERIES.filter((query) => query.kind === 'paraphrase').flatMap((query) => {
      const words = contentWords(query.query);
      return query.answers.flatMap((id) =>
        [...contentWords(summaries.get(id) ?? '')]
          .filter((word) => words.has(word))
          .map((word) => `${query.query} / ${id}: ${word}`),
      );
    });
    expect(shared).toEqual([]);
  });
});

function summariesOf(document: Record<string, unknown>): Map<string, string> {
  const summaries = new Map<string, string>();
  for (const item of Object.values(document.paths as Record<string, Record<string, unknown>>)) {
    for (const operation of Object.values(item)) {
      const { operationId, summary } = (operation ?? {}) as Record<string, unknown>;
      if (typeof operationId === 'string') summaries.set(operationId, String(summary ?? ''));
    }
  }
  return summaries;
}

describe('the vocabularies written apart (search-vocabulary-families, -goals, -everyday, -idioms, -words)', () => {
  let held: ReadonlySet<string> | undefined;
  /** Every term of GitHub's tools, as the index holds them (made once). */
  const heldTerms = (): ReadonlySet<string> => {
    held ??= new Set(tools.flatMap((tool) => Object.values(searchDocumentOf(tool)).flat()));
    return held;
  };

  it('are the five tables, read in the order they were written', () => {
    expect(TABLES_WRITTEN_APART.map((table) => table.name)).toEqual([
      'families',
      'goals',
      'everyday',
      'idioms',
      'words',
    ]);
  });

  describe.each(TABLES_WRITTEN_APART.map((table) => [table.name, table] as const))(
    '%s',
    (_, { rows, phrases }) => {
      it("adds only words GitHub's tools hold, and gives no word two rows", () => {
        const held = heldTerms();
        const missing = rows
          .flatMap(([, means]) => termsOf(means))
          .filter((term) => !held.has(term));
        expect(missing).toEqual([]);
        const said = rows.flatMap(([words]) => words.split(' '));
        expect(said.filter((word, index) => said.indexOf(word) !== index)).toEqual([]);
      });

      it('has phrases of plain words read as one word, each once', () => {
        // A phrase becomes a regular expression: anything but words and spaces would change its sense.
        expect(phrases.filter(([phrase]) => !/^[a-z0-9']+( [a-z0-9']+)+$/.test(phrase))).toEqual(
          [],
        );
        expect(phrases.filter(([, word]) => !/^[a-z0-9]+$/.test(word))).toEqual([]);
        const said = phrases.map(([phrase]) => phrase);
        expect(said.filter((phrase, index) => said.indexOf(phrase) !== index)).toEqual([]);
      });
    },
  );
});

describe('recall over GitHub (1,202 tools)', () => {
  // Pinned at what the ranking measures (decision 0045): found in the top 5 and the top 10, of
  // n. 'tuning' is the first 168 queries (both halves), tuned on; 'fresh' was written later by
  // someone else; 'fresh-2' to 'fresh-4' were each written beside or after a blind vocabulary
  // and then helped decide whether the next was kept. 'fresh-5' was written beside the last and
  // measured once, deciding nothing: its row is the honest figure. An exact pin fails on a gain
  // as on a loss, so a ranking change states its new figures here and in the decision.
  it.each([
    ['direct', 'tuning', 58, 58, 58],
    ['paraphrase', 'tuning', 55, 36, 44],
    ['indirect', 'tuning', 51, 32, 39],
    ['direct', 'tune', 29, 29, 29],
    ['paraphrase', 'tune', 28, 20, 24],
    ['indirect', 'tune', 25, 18, 21],
    ['direct', 'held-out', 29, 29, 29],
    ['paraphrase', 'held-out', 27, 16, 20],
    ['indirect', 'held-out', 26, 14, 18],
    ['direct', 'fresh', 20, 20, 20],
    ['paraphrase', 'fresh', 40, 19, 23],
    ['indirect', 'fresh', 40, 14, 20],
    ['direct', 'fresh-2', 19, 19, 19],
    ['paraphrase', 'fresh-2', 40, 16, 22],
    ['indirect', 'fresh-2', 40, 19, 23],
    ['direct', 'fresh-3', 20, 20, 20],
    ['paraphrase', 'fresh-3', 40, 18, 18],
    ['indirect', 'fresh-3', 40, 16, 22],
    ['direct', 'fresh-4', 19, 19, 19],
    ['paraphrase', 'fresh-4', 37, 16, 21],
    ['indirect', 'fresh-4', 40, 16, 20],
    ['direct', 'fresh-5', 20, 20, 20],
    ['paraphrase', 'fresh-5', 39, 12, 19],
    ['indirect', 'fresh-5', 40, 14, 18],
  ] as const)(
    '%s queries (%s): found in the top 5 and 10 as measured',
    async (kind, part, n, at5, at10) => {
      const queries = scored.filter((query) => query.kind === kind && inPart(query, part));
      const recall = await recallOf(ranked, queries);
      expect(recall.queries).toBe(n);
      expect([Math.round(recall.at5 * n), Math.round(recall.at10 * n)]).toEqual([at5, at10]);
    },
  );

  it.each([
    [
      'delete a deploy key',
      ['repos/delete-deploy-key', 'repos/get-deploy-key', 'repos/create-deploy-key'],
    ],
    [
      'which people get pinged on every change to octo/site',
      ['activity/list-watchers-for-repo', 'repos/ping-webhook', 'orgs/ping-webhook'],
    ],
    [
      'our build is stuck and eating minutes',
      [
        'actions/cancel-workflow-run',
        'actions/force-cancel-workflow-run',
        'actions/get-workflow-run-usage',
      ],
    ],
    [
      'share a quick code snippet publicly as a paste',
      ['gists/get', 'gists/update', 'gists/delete'],
    ],
    [
      'the PR is behind main, bring it up to date',
      ['pulls/update-branch', 'repos/merge-upstream', 'repos/update-branch-protection'],
    ],
  ])('ranks %j exactly', async (query, top) => {
    expect(await ranked(query, 3)).toEqual(top);
  });
});

/** A tool as a model is shown it, in the JSON a provider sends. */
function shownJson(tool: AnyRuntimeToolDefinition): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: toolInputJsonSchema(tool),
  });
}

describe('footprint', () => {
  it('shows the search meta-tools in under 2,000 tokens, estimated and o200k', () => {
    const meta = searchCatalog(tools);
    const estimated = meta.reduce(
      (sum, tool) => sum + estimateTokens(JSON.parse(shownJson(tool))),
      0,
    );
    const o200k = meta.reduce((sum, tool) => sum + countTokens(shownJson(tool)), 0);
    expect(estimated).toBeLessThanOrEqual(2_000);
    expect(o200k).toBeLessThanOrEqual(2_000);
    // The same three tools over a catalog ten times the size: only the counts in a line change.
    const tenfold = searchCatalog(
      Array.from({ length: 10 }, (_, copy) =>
        tools.map((tool) => Object.assign({}, tool, { name: `c${copy}_${tool.name.slice(-60)}` })),
      ).flat(),
    );
    const tenfoldTokens = tenfold.reduce((sum, tool) => sum + countTokens(shownJson(tool)), 0);
    expect(tenfoldTokens - o200k).toBeLessThanOrEqual(2);
  });
});
