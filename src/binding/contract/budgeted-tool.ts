/**
 * The result budget baked into a definition's presenters (issue 46, decision 0044), so any runner
 * that mounts the definition (ours, or stitchkit's own `mountAgent`) shows the model a result cut
 * to its budget, while the host's data (`runTool` without a transport) stays whole.
 */
import type { CallToolResult, McpCallPresentation } from '../kernel/mcp-types.js';
import { isPlainObject } from '../kernel/type-guards.js';
import { isCallToolResult, jsonText } from './estimate-tokens.js';
import { presentOutput } from './presentation.js';
import {
  budgetResult,
  DEFAULT_RESULT_BUDGET_TOKENS,
  MAX_RESULT_BUDGET_TOKENS,
  MIN_RESULT_BUDGET_TOKENS,
} from './result-budget.js';
import {
  type ResultSpillBoundary,
  type ResultSpillStore,
  resultSpillStoreOf,
} from './result-spill.js';
import type { AnyRuntimeToolDefinition, McpPresentation } from './runtime-tool.js';
import { markSearchKeywords, searchKeywordsOf } from './search-keywords.js';

/** What a model may see of each result: a token budget, and where cut results are kept whole. */
export interface ResultBudget {
  /**
   * Estimated tokens (`estimateTokens`) a result may take: an integer from 500 to 25,000; default
   * 10,000. A tool's own `_meta["anthropic/maxResultSizeChars"]` raises it (up to 500,000 characters).
   */
  readonly maxTokens?: number;
  /**
   * Keeps the whole payload of each cut result in a file inside `boundary` (a `FileBoundary` from
   * `createFileBoundary`), which the marker names and the `read_result` tool reads page by page.
   */
  readonly spill?: { readonly boundary: ResultSpillBoundary };
}

/** The budget a definition's presenters were built with. */
export interface AppliedResultBudget {
  /** The budget of each result, in estimated tokens (after the tool's own allowance). */
  readonly maxTokens: number;
  /** Where cut results are kept, when they are. */
  readonly spill?: ResultSpillStore;
}

/**
 * What the agent's model receives, in the AI SDK's tool-output shape (`toModelOutput`): a
 * result within budget as it is (`text` for a string, else `json`); a cut one as its blocks
 * (`content`), so the model reads the text as written, not escaped inside JSON.
 */
export type AgentModelOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: AgentJsonValue }
  | { type: 'content'; value: AgentContentPart[] };

/** The agent's model output of a result's blocks, as they are. */
export function agentContentOutput(result: CallToolResult): AgentModelOutput {
  return { type: 'content', value: result.content.map(contentPart) };
}

/** A JSON value, as the AI SDK types a `json` tool output. */
export type AgentJsonValue =
  | null
  | string
  | number
  | boolean
  | AgentJsonValue[]
  | { [key: string]: AgentJsonValue | undefined };

/** One part of a `content` model output. */
export type AgentContentPart =
  | { type: 'text'; text: string }
  | { type: 'media'; data: string; mediaType: string };

const budgets = new WeakMap<AnyRuntimeToolDefinition, AppliedResultBudget>();

/**
 * The budget baked into `definition` by {@link withResultBudget}, else `undefined`. Mounts use it
 * so a budgeted definition is never cut twice.
 */
export function resultBudgetOf(
  definition: AnyRuntimeToolDefinition,
): AppliedResultBudget | undefined {
  return budgets.get(definition);
}

/**
 * Records that `definition`'s presenters already keep its results within `applied` (a tool whose
 * answers are sized by construction, as `read_result`'s pages are).
 */
export function markResultBudget<D extends AnyRuntimeToolDefinition>(
  definition: D,
  applied: AppliedResultBudget,
): D {
  budgets.set(definition, applied);
  return definition;
}

/**
 * Checks a `resultBudget` option (`option` names it in messages) and returns its token budget
 * (absent: `undefined`) and spill store; throws a `RangeError` or `TypeError` for a bad value.
 */
export function checkResultBudget(
  option: string,
  budget: unknown,
): { readonly maxTokens: number | undefined; readonly spill: ResultSpillStore | undefined } {
  if (budget === undefined) return { maxTokens: undefined, spill: undefined };
  if (!isPlainObject(budget)) throw new TypeError(`${option} must be an object`);
  const maxTokens = checkMaxTokens(`${option}.maxTokens`, budget.maxTokens);
  const spill = budget.spill;
  if (spill === undefined) return { maxTokens, spill: undefined };
  const boundary = isPlainObject(spill) ? spill.boundary : undefined;
  if (
    !isPlainObject(boundary) ||
    typeof boundary.root !== 'string' ||
    typeof boundary.write !== 'function' ||
    typeof boundary.read !== 'function'
  ) {
    throw new TypeError(
      `${option}.spill.boundary must be a file boundary (createFileBoundary({ root }))`,
    );
  }
  return { maxTokens, spill: resultSpillStoreOf(boundary as unknown as ResultSpillBoundary) };
}

/** A token budget option: absent, or an integer from 500 to 25,000; else a `RangeError`. */
export function checkMaxTokens(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < MIN_RESULT_BUDGET_TOKENS ||
    value > MAX_RESULT_BUDGET_TOKENS
  ) {
    throw new RangeError(
      `${option} must be an integer from ${MIN_RESULT_BUDGET_TOKENS} to ${MAX_RESULT_BUDGET_TOKENS} estimated tokens (default ${DEFAULT_RESULT_BUDGET_TOKENS}); got ${typeof value === 'number' ? String(value) : typeof value}`,
    );
  }
  return value;
}

/** A presented value as a tool result: its own blocks, a string as text, else its JSON. */
function asCallToolResult(value: unknown): CallToolResult {
  if (isCallToolResult(value)) return value;
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  return { content: [{ type: 'text', text: jsonText(value ?? null) }] };
}

function spillOf(applied: AppliedResultBudget) {
  const { spill, maxTokens } = applied;
  return spill === undefined ? {} : { spill: (payload: string) => spill.keep(payload, maxTokens) };
}

/**
 * The MCP presentation of `presented` under `applied`. A tool that advertises an output schema
 * keeps its `structuredContent` whole (MCP clients check it against that schema); only its
 * blocks are cut.
 */
export function budgetMcpPresentation(
  presented: McpCallPresentation,
  applied: AppliedResultBudget,
  keepStructured: boolean,
): McpCallPresentation {
  const { structuredContent, ...blocks } = presented;
  const subject: CallToolResult = keepStructured ? blocks : presented;
  const { result, cut } = budgetResult(subject, {
    maxTokens: applied.maxTokens,
    ...spillOf(applied),
  });
  if (cut === undefined) return presented;
  const shown: McpCallPresentation = { content: result.content };
  if (keepStructured && structuredContent !== undefined)
    shown.structuredContent = structuredContent;
  else if (isPlainObject(result.structuredContent))
    shown.structuredContent = result.structuredContent;
  if (isPlainObject(result._meta)) shown._meta = result._meta;
  return shown;
}

/** What the agent's model receives of `presented` (a presenter's value or the output) under `applied`. */
export function budgetAgentOutput(
  presented: unknown,
  applied: AppliedResultBudget,
): AgentModelOutput {
  const { result, cut } = budgetResult(asCallToolResult(presented), {
    maxTokens: applied.maxTokens,
    ...spillOf(applied),
  });
  if (cut === undefined) {
    return typeof presented === 'string'
      ? { type: 'text', value: presented }
      : { type: 'json', value: (presented ?? null) as AgentJsonValue };
  }
  return agentContentOutput(result);
}

function contentPart(block: CallToolResult['content'][number]): AgentContentPart {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image' || block.type === 'audio') {
    return { type: 'media', data: block.data, mediaType: block.mimeType };
  }
  // A resource or a link: the model reads what it names.
  return { type: 'text', text: jsonText(block) };
}

/**
 * A copy of `definition` whose presenters show the model each result within `applied`: on MCP,
 * its presentation (its own `present.mcp`, else the JSON text and `structuredContent`) cut; on an
 * agent, an AI SDK tool output (`toModelOutput`) of its `present.agent` value (else the output),
 * cut. The handler, schemas and identity are the same; `runTool` without a transport still
 * returns the whole output. {@link resultBudgetOf} finds `applied` on the copy.
 */
export function withResultBudget<D extends AnyRuntimeToolDefinition>(
  definition: D,
  applied: AppliedResultBudget,
): D {
  const keepStructured = definition.outputJsonSchema !== undefined;
  // Copied with `Object.assign`, not a spread followed by `present`: a key stored after a spread
  // takes V8's slow path, and a large mount budgets every tool.
  const budgeted: D = Object.assign({}, definition, {
    present: {
      mcp: (output: unknown): McpPresentation =>
        budgetMcpPresentation(
          presentOutput(definition, 'MCP', output) as McpCallPresentation,
          applied,
          keepStructured,
        ) as McpPresentation,
      agent: (output: unknown) =>
        budgetAgentOutput(presentOutput(definition, 'AGENT', output), applied),
    },
  });
  return markResultBudget(markSearchKeywords(budgeted, searchKeywordsOf(definition)), applied);
}
