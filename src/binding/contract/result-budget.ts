/**
 * What a model sees of a tool result over its budget (decision 0043). Pure: no I/O.
 *
 * The host's data (`runTool`'s output) is never touched: this shapes the model-facing copy only.
 * Over budget, the head and the tail of the text are kept (3:1) around a marker, itself inside
 * the budget, that says what was cut and what to do next; non-text blocks are never cut.
 */
import type { CallToolResult } from '../kernel/mcp-types.js';
import { isPlainObject } from '../kernel/type-guards.js';
import {
  estimateBlockTokens,
  estimateResultTokens,
  estimateTextTokens,
  jsonText,
} from './estimate-tokens.js';
import { cutJson, cutProse, formatCount, HEAD_SHARE, isJsonContainerText } from './result-cut.js';

/** The budget of a model-facing result when none is configured (Codex's and Mastra's figure). */
export const DEFAULT_RESULT_BUDGET_TOKENS = 10_000;
/** The most a configured budget may be (Claude Code's `MAX_MCP_OUTPUT_TOKENS` default). */
export const MAX_RESULT_BUDGET_TOKENS = 25_000;
/** The least budget: room for the marker and a useful head and tail beside it. */
export const MIN_RESULT_BUDGET_TOKENS = 500;
/** The `_meta` key on a tool in `tools/list` declaring the characters its results may take. */
export const DECLARED_RESULT_SIZE_META = 'anthropic/maxResultSizeChars';
/** The most characters a tool may declare (Claude Code honours the key up to this value). */
export const MAX_DECLARED_RESULT_SIZE_CHARS = 500_000;
/**
 * Characters per token a declared size is converted at: the densest kind in the corpus (a log of
 * timestamps and hex ids, 2.1 characters per o200k token), so a result of the declared size is
 * not cut whatever its kind.
 */
export const DECLARED_CHARS_PER_TOKEN = 2;
/** Tokens set aside for the marker while the text is sized (the marker's estimate stays below). */
const MARKER_RESERVE_TOKENS = 160;

type ContentBlock = CallToolResult['content'][number];
type TextBlock = Extract<ContentBlock, { type: 'text' }>;

/** What a budget did to a result: the figures the marker states, and what was left out. */
export interface CutReport {
  /** The budget applied, in estimated tokens. */
  readonly budgetTokens: number;
  /** Characters of the result's text blocks and, unless it duplicated a text block, its structuredContent's JSON. */
  readonly originalChars: number;
  /** The estimate of the same payload (`estimateTokens`), its structuredContent counted once. */
  readonly originalTokens: number;
  /** The estimate of what the model now sees, marker included. */
  readonly keptTokens: number;
  /**
   * `dropped-duplicate`: a text block carried the same JSON, and that copy stands for it;
   * `moved-to-text`: its compact JSON became a text block, cut as any other.
   */
  readonly structuredContent?: 'dropped-duplicate' | 'moved-to-text';
  /** Text blocks cut: one (both ends kept) or two (the head of one, the tail of a later one). */
  readonly cutTextBlocks: number;
  /** Text blocks between the kept head and tail, left out whole. */
  readonly omittedTextBlocks: number;
  /** Non-text blocks left out because together they alone exceeded the budget. */
  readonly omittedMediaBlocks: number;
  /** The marker's text (also a text block of the result), when anything was cut or left out. */
  readonly marker?: string;
}

/** Where the whole payload of a cut result was kept (a spill), for the marker to name. */
export interface SpilledResult {
  /** The id `read_result` reads it by. */
  readonly id: string;
  /** The file inside the spill boundary, relative to its root. */
  readonly path: string;
}

/** How {@link budgetResult} cuts. */
export interface ResultBudgetOptions {
  /** The budget in estimated tokens (clamped to at least `MIN_RESULT_BUDGET_TOKENS`). */
  readonly maxTokens: number;
  /**
   * Called once when the result is cut, with its text payload (the text blocks after the
   * `structuredContent` rule, joined by a blank line); what it returns is named by the marker,
   * which then says to read on with `read_result`. `undefined`: nothing was kept.
   */
  readonly spill?: (payload: string) => SpilledResult | undefined;
}

/** A result as the model may see it under a budget, and what the budget did to it. */
export interface BudgetedResult {
  /** The result itself when within budget (the same object), else the cut copy. */
  readonly result: CallToolResult;
  /** Present when the result was changed. */
  readonly cut?: CutReport;
}

function isTextBlock(block: ContentBlock): block is TextBlock {
  return block.type === 'text';
}

/** The budget a result gets, clamped to at least `MIN_RESULT_BUDGET_TOKENS`. */
function effectiveBudget(maxTokens: number): number {
  return Number.isFinite(maxTokens)
    ? Math.max(MIN_RESULT_BUDGET_TOKENS, Math.floor(maxTokens))
    : DEFAULT_RESULT_BUDGET_TOKENS;
}

/**
 * True when a text block carries `structuredContent`'s JSON (the spec's SHOULD, 2025-06-18), or
 * the one member of a wrapper around it (`{ "result": [...] }`, as servers wrap an array).
 */
function duplicatesStructured(content: readonly ContentBlock[], structured: unknown): boolean {
  const json = jsonText(structured);
  const members = isPlainObject(structured) ? Object.values(structured) : [];
  const wrapped = members.length === 1 ? jsonText(members[0]) : undefined;
  return content.some((block) => {
    if (!isTextBlock(block)) return false;
    if (block.text === json || block.text === wrapped) return true;
    if (!isJsonContainerText(block.text)) return false;
    const text = jsonText(JSON.parse(block.text));
    return text === json || text === wrapped;
  });
}

/** `text` cut to `tokens`, sized in characters by the text's own density and checked. */
function fitText(text: string, tokens: number, ends: 'both' | 'head' | 'tail') {
  const density = text.length / Math.max(1, estimateTextTokens(text));
  const cutAt = isJsonContainerText(text) ? cutJson : cutProse;
  let chars = Math.floor(tokens * density);
  for (let attempt = 0; attempt < 12 && chars > 0; attempt += 1) {
    const cut = cutAt(text, chars, ends);
    const spent = cut.pieces.reduce((sum, piece) => sum + estimateTextTokens(piece), 0);
    if (spent <= tokens) return cut;
    chars = Math.min(chars - 1, Math.floor((chars * tokens * 0.97) / spent));
  }
  return cutAt(text, 0, ends);
}

interface Plan {
  readonly content: ContentBlock[];
  readonly kept: string[];
  readonly cutTextBlocks: number;
  readonly omittedTextBlocks: number;
}

const textBlock = (text: string): TextBlock => ({ type: 'text', text });

/**
 * The text blocks of `content` fitted into `allowance` tokens: whole blocks from the start while
 * the head share lasts, whole blocks from the end while the tail share lasts, the block where
 * each runs out cut, the blocks between left out. `marker` goes after the head.
 */
function planText(content: readonly ContentBlock[], allowance: number, marker: TextBlock): Plan {
  const texts = content.flatMap((block) => (isTextBlock(block) ? [block] : []));
  const costs = texts.map(estimateBlockTokens);
  const headShare = Math.floor(allowance * HEAD_SHARE);
  let headLeft = headShare;
  let h = 0;
  while (h < texts.length && (costs[h] ?? 0) <= headLeft) {
    headLeft -= costs[h] ?? 0;
    h += 1;
  }
  if (h === texts.length) {
    return { content: [...content, marker], kept: [], cutTextBlocks: 0, omittedTextBlocks: 0 };
  }
  let tailLeft = allowance - headShare;
  let t = texts.length - 1;
  while (t > h && (costs[t] ?? 0) <= tailLeft) {
    tailLeft -= costs[t] ?? 0;
    t -= 1;
  }
  const label = (at: number) => (texts.length > 1 ? `text block ${at + 1}: ` : '');
  const replaced = new Map<ContentBlock, ContentBlock[]>();
  const kept: string[] = [];
  const headBlock = texts[h] as TextBlock;
  const tailBlock = texts[t] as TextBlock;
  if (h === t) {
    const cut = fitText(headBlock.text, headLeft + tailLeft, 'both');
    const [first, ...others] = cut.pieces.map(textBlock);
    replaced.set(headBlock, [...(first ? [first] : []), marker, ...others]);
    kept.push(`${label(h)}${cut.kept}`);
  } else {
    const head = fitText(headBlock.text, headLeft, 'head');
    const tail = fitText(tailBlock.text, tailLeft, 'tail');
    replaced.set(headBlock, [...head.pieces.map(textBlock), marker]);
    replaced.set(tailBlock, tail.pieces.map(textBlock));
    for (const block of texts.slice(h + 1, t)) replaced.set(block, []);
    kept.push(`${label(h)}${head.kept}`, `${label(t)}${tail.kept}`);
  }
  return {
    content: content.flatMap((block) => replaced.get(block) ?? [block]),
    kept,
    cutTextBlocks: h === t ? 1 : 2,
    omittedTextBlocks: Math.max(0, t - h - 1),
  };
}

/** The marker: what was cut, in characters and estimated tokens, what was kept, what to do next. */
function markerText(
  report: Omit<CutReport, 'keptTokens' | 'marker'>,
  kept: readonly string[],
  spilled: SpilledResult | undefined,
) {
  const parts = [
    `[Result cut to fit the model's budget of ${formatCount(report.budgetTokens)} tokens: the original is ${formatCount(report.originalChars)} characters, about ${formatCount(report.originalTokens)} tokens.`,
  ];
  if (kept.length > 0) parts.push(`Kept: ${kept.join('; ')}.`);
  if (report.omittedTextBlocks > 0) {
    parts.push(`Left out: ${formatCount(report.omittedTextBlocks)} text blocks.`);
  }
  if (report.omittedMediaBlocks > 0) {
    parts.push(
      `Left out: ${formatCount(report.omittedMediaBlocks)} non-text blocks (images, audio or resources), which alone exceed the budget.`,
    );
  }
  if (report.structuredContent === 'moved-to-text') {
    parts.push('The structured content is shown as its JSON text.');
  }
  parts.push(
    spilled === undefined
      ? 'To see what was cut, narrow the request (a filter, a query, a smaller page or limit, fewer fields).]'
      : `The whole result is kept as ${spilled.path}: read it page by page with read_result {"id":"${spilled.id}"} (an offset in characters starts a page there), or narrow the request.]`,
  );
  return parts.join(' ');
}

/**
 * What the model sees of `result` under `budget.maxTokens` estimated tokens (`estimateTokens`;
 * clamped to at least `MIN_RESULT_BUDGET_TOKENS`). Within budget: `result` itself. Over it:
 * - `structuredContent` is dropped when a text block carries the same JSON, else its compact
 *   JSON becomes a text block, so the model never sees a full copy beside a cut one;
 * - non-text blocks are kept whole, in order, while they fit in the budget less the marker's
 *   reserve; the rest are left out with a note (so only when they alone exceed the budget);
 * - text blocks keep their head and tail (3:1), cut at line ends or spaces, JSON at record
 *   boundaries so it still parses, with a marker block after the head;
 * - `isError` and `_meta` are kept.
 */
export function budgetResult(result: CallToolResult, budget: ResultBudgetOptions): BudgetedResult {
  const budgetTokens = effectiveBudget(budget.maxTokens);
  if (estimateResultTokens(result) <= budgetTokens) return { result };
  const { structuredContent, content: original, ...rest } = result;
  let content: ContentBlock[] = [...original];
  let structured: CutReport['structuredContent'];
  if (structuredContent !== undefined) {
    if (duplicatesStructured(original, structuredContent)) structured = 'dropped-duplicate';
    else {
      structured = 'moved-to-text';
      content.push({ type: 'text', text: jsonText(structuredContent) });
    }
  }
  const originalChars = content.reduce(
    (sum, block) => sum + (isTextBlock(block) ? block.text.length : 0),
    0,
  );
  // Keys first, the spread last (docs/architecture.md, "Per-call objects").
  const base: CallToolResult = { content, ...rest };
  // The payload counted once: a duplicated structuredContent no longer counts twice.
  const originalTokens = estimateResultTokens(base);
  if (originalTokens <= budgetTokens) {
    const cut: CutReport = {
      budgetTokens,
      originalChars,
      originalTokens,
      keptTokens: originalTokens,
      structuredContent: structured,
      cutTextBlocks: 0,
      omittedTextBlocks: 0,
      omittedMediaBlocks: 0,
    };
    return { result: base, cut };
  }
  const spilled = budget.spill?.(spillPayload(content));
  let mediaLeft = budgetTokens - MARKER_RESERVE_TOKENS;
  let omittedMediaBlocks = 0;
  content = content.filter((block) => {
    if (isTextBlock(block)) return true;
    const cost = estimateBlockTokens(block);
    if (cost <= mediaLeft) {
      mediaLeft -= cost;
      return true;
    }
    omittedMediaBlocks += 1;
    return false;
  });
  const textBlocks = content.filter(isTextBlock).length;
  let allowance = mediaLeft;
  for (let attempt = 0; ; attempt += 1) {
    // A marker longer than its reserve shrinks the text; the last resort keeps no text at all.
    if (attempt >= 4) allowance = 0;
    const slot = textBlock('');
    const plan =
      allowance > 0 && textBlocks > 0
        ? planText(content, allowance, slot)
        : {
            content: [...content.filter((block) => !isTextBlock(block)), slot],
            kept: [],
            cutTextBlocks: 0,
            omittedTextBlocks: textBlocks,
          };
    const figures = {
      budgetTokens,
      originalChars,
      originalTokens,
      structuredContent: structured,
      cutTextBlocks: plan.cutTextBlocks,
      omittedTextBlocks: plan.omittedTextBlocks,
      omittedMediaBlocks,
    };
    const marker = markerText(figures, plan.kept, spilled);
    const cut: CallToolResult = {
      content: plan.content.map((block) => (block === slot ? textBlock(marker) : block)),
      ...rest,
    };
    const keptTokens = estimateResultTokens(cut);
    if (keptTokens <= budgetTokens || allowance <= 0) {
      return { result: cut, cut: { keptTokens, marker, ...figures } };
    }
    allowance -= keptTokens - budgetTokens;
  }
}

/** What a spill keeps of a result: its text blocks, joined by a blank line (one block as it is). */
export function spillPayload(content: readonly ContentBlock[]): string {
  return content.flatMap((block) => (isTextBlock(block) ? [block.text] : [])).join('\n\n');
}

/**
 * The budget of one tool's results, in estimated tokens: the configured one (default
 * `DEFAULT_RESULT_BUDGET_TOKENS`), at most `MAX_RESULT_BUDGET_TOKENS`, raised (never lowered) by
 * the tool's own `_meta["anthropic/maxResultSizeChars"]` from `tools/list`, which is honoured up
 * to `MAX_DECLARED_RESULT_SIZE_CHARS` and converted at `DECLARED_CHARS_PER_TOKEN`.
 */
export function resultBudgetTokens(
  tool: { _meta?: unknown } | undefined,
  configured?: number,
): number {
  const base = Math.min(
    MAX_RESULT_BUDGET_TOKENS,
    effectiveBudget(configured ?? DEFAULT_RESULT_BUDGET_TOKENS),
  );
  const declared = isPlainObject(tool?._meta) ? tool._meta[DECLARED_RESULT_SIZE_META] : undefined;
  if (typeof declared !== 'number' || !Number.isFinite(declared) || declared <= 0) return base;
  const chars = Math.min(MAX_DECLARED_RESULT_SIZE_CHARS, declared);
  return Math.max(base, Math.ceil(chars / DECLARED_CHARS_PER_TOKEN));
}
