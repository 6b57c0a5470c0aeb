/**
 * What catalog search ranks a tool by, and how a query becomes weighted terms (decision 0045):
 * the tool's name (the connection's prefix taken off) and its action (an OpenAPI operationId,
 * whose first segment is the document's tag on GitHub's), its title or first line, its
 * description, its parameters' names, the verbs of its HTTP method, and the words recorded beside
 * it (an OpenAPI operation's path segments and tags); each field weighted.
 * Pure: no I/O.
 */
import type { AnyRuntimeToolDefinition, ToolHttpMethod } from '../contract/runtime-tool.js';
import { searchKeywordsOf } from '../contract/search-keywords.js';
import {
  buildSearchIndex,
  type QueryConcept,
  type SearchFieldSpec,
  type SearchHit,
  type SearchIndex,
} from './search-index.js';
import { splitWords, termsOf } from './search-text.js';
import {
  ADDED_TERM_WEIGHT,
  asksForList,
  rewritePhrases,
  vocabularyOf,
} from './search-vocabulary.js';
import { sharedInputJsonSchema } from './tool-surface.js';

/** The fields a tool is ranked by. */
export type SearchField = 'name' | 'summary' | 'description' | 'parameters' | 'method' | 'keywords';

/** Each field's weight and length normalisation (measured on the query set, decision 0045). */
export const SEARCH_FIELDS: Readonly<Record<SearchField, SearchFieldSpec>> = {
  name: { weight: 3, b: 0.5 },
  summary: { weight: 2, b: 0.5 },
  description: { weight: 1, b: 0.75 },
  parameters: { weight: 0.5, b: 0.75 },
  method: { weight: 0.5, b: 0 },
  keywords: { weight: 0.5, b: 0.5 },
};

/** The characters of a description that are indexed: the opening says what a tool does. */
export const INDEXED_DESCRIPTION_CHARS = 300;

/** The verbs each HTTP method stands for, so "remove" finds a DELETE and "show" a GET. */
const METHOD_VERBS: Readonly<Record<ToolHttpMethod, string>> = {
  GET: 'get list',
  HEAD: 'get check',
  POST: 'create add',
  PUT: 'set add update replace',
  PATCH: 'update edit',
  DELETE: 'delete remove',
};

/** The first line of a description, as a one-line summary. */
export function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.trim();
}

/** The tool's name without its connection's `<service>__` prefix, when it has one. */
function bareName(definition: AnyRuntimeToolDefinition): string {
  const separator = definition.name.indexOf('__');
  return separator > 0 ? definition.name.slice(separator + 2) : definition.name;
}

/**
 * The property names of a JSON Schema and of its object properties one level down, with the
 * values of their string enums: a parameter's allowed values are API words too (`closed`,
 * `completed`, `archived`).
 */
function parameterWords(schema: unknown, depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const words: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    words.push(name);
    const values = (property as { enum?: unknown } | null)?.enum;
    if (Array.isArray(values)) {
      for (const value of values) if (typeof value === 'string') words.push(value);
    }
    if (depth === 0) words.push(...parameterWords(property, depth + 1));
  }
  return words;
}

function inputSchemaOf(definition: AnyRuntimeToolDefinition): unknown {
  try {
    return sharedInputJsonSchema(definition);
  } catch {
    // A schema with no JSON form is still searchable by its other fields.
    return undefined;
  }
}

function sameTerms(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((term, index) => term === b[index]);
}

/** The fields of one tool, as terms. */
export function searchDocumentOf(
  definition: AnyRuntimeToolDefinition,
): Record<SearchField, string[]> {
  const nameTerms = termsOf(bareName(definition));
  const actionTerms = termsOf(definition.identity.action);
  const title = definition.annotations?.title ?? firstLine(definition.description);
  return {
    // An OpenAPI tool's name is its operationId, sanitised: index the words once.
    name: sameTerms(nameTerms, actionTerms) ? nameTerms : [...nameTerms, ...actionTerms],
    summary: termsOf(title),
    description: termsOf(definition.description.slice(0, INDEXED_DESCRIPTION_CHARS)),
    parameters: termsOf(parameterWords(inputSchemaOf(definition)).join(' ')),
    method: termsOf(METHOD_VERBS[definition.identity.method]),
    keywords: termsOf(searchKeywordsOf(definition)),
  };
}

const OWNER_SLASH_NAME = /[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+/g;

/** The term a question for a list adds: the verb of the operations that list (`termsOf('list')`). */
const LIST_TERM = 'list';

/**
 * The concepts of a query: each distinct word at weight 1 with the API words the vocabulary adds
 * for it at {@link ADDED_TERM_WEIGHT}, and "list" at that weight when the query asks which or who.
 */
export function queryConcepts(query: string): QueryConcept[] {
  // `owner/name` names a repository; its parts are names, not words ("octo/site" is no website).
  const text = rewritePhrases(query.replace(OWNER_SLASH_NAME, ' repository '));
  const own = new Set(termsOf(text));
  const concepts: QueryConcept[] = [...own].map((term) => [
    { term, weight: 1 },
    ...vocabularyOf(term)
      .filter((added) => added !== term)
      .map((added) => ({ term: added, weight: ADDED_TERM_WEIGHT })),
  ]);
  if (!own.has(LIST_TERM) && asksForList(splitWords(text))) {
    concepts.push([{ term: LIST_TERM, weight: ADDED_TERM_WEIGHT }]);
  }
  return concepts;
}

/** A ranked catalog: the tools in their given order and the index over them. */
export interface RankedCatalog {
  /** The tools, in the order given. */
  readonly tools: readonly AnyRuntimeToolDefinition[];
  /** The best `limit` tools for `query`, best first. */
  search(query: string, limit: number): SearchHit[];
}

/**
 * What a tool whose whole summary the query covers gains, against BM25F scores that run from 0
 * to about 15 on GitHub's document: "list pull requests" then ranks "List pull requests" above
 * "Get all requested reviewers for a pull request", which holds the same words and more.
 */
export const SUMMARY_COVERAGE_BONUS = 3;
/** How many of BM25F's best the summary coverage re-ranks. */
const RERANKED = 50;

/** The share of `summary`'s terms the query holds, an added word counting as its weight. */
function coverage(summary: readonly string[], weights: ReadonlyMap<string, number>): number {
  if (summary.length === 0) return 0;
  let covered = 0;
  for (const term of summary) covered += weights.get(term) ?? 0;
  return covered / summary.length;
}

/** Builds the index of `tools` (the cost of a mount, paid once). */
export function rankCatalog(tools: readonly AnyRuntimeToolDefinition[]): RankedCatalog {
  const documents = tools.map(searchDocumentOf);
  const index: SearchIndex = buildSearchIndex(documents, SEARCH_FIELDS);
  return {
    tools,
    search(query, limit) {
      const concepts = queryConcepts(query);
      const weights = new Map<string, number>();
      for (const { term, weight } of concepts.flat()) {
        weights.set(term, Math.max(weight, weights.get(term) ?? 0));
      }
      const hits = index.search(concepts, Math.max(limit, RERANKED)).map((hit) => ({
        index: hit.index,
        score:
          hit.score +
          SUMMARY_COVERAGE_BONUS * coverage(documents[hit.index]?.summary ?? [], weights),
      }));
      hits.sort((a, b) => b.score - a.score || a.index - b.index);
      return hits.slice(0, limit);
    },
  };
}
