/**
 * How many tokens a model spends on a value, estimated without a tokenizer (decision 0043).
 * Pure: no I/O.
 *
 * The rule follows how BPE tokenizers such as o200k split text before merging: words (split at
 * camelCase humps), digits in groups of three, runs of punctuation, and line breaks with their
 * indentation each cost tokens of their own, and a wide (CJK) character costs about one. So JSON
 * full of quotes, hashes, numbers and URLs costs more per character than prose, and a log line
 * of timestamps far more: a flat characters-per-token rate misses both (-47 % on a log, -36 % on
 * Chinese prose, on the corpus in `test/fixtures/token-corpus/`).
 */
import type { CallToolResult } from '../kernel/mcp-types.js';
import { isPlainObject } from '../kernel/type-guards.js';

/** Letters of one word (a run between camelCase humps) that cost one token. */
export const WORD_CHARS_PER_TOKEN = 8;
/** Digits of one run that cost one token (o200k splits numbers in groups of at most three). */
export const DIGITS_PER_TOKEN = 3;
/** Characters of one run of punctuation (`":"`, `"},{"`, `=>`) that cost one token. */
export const PUNCTUATION_CHARS_PER_TOKEN = 3;
/** Tokens of one wide character (CJK ideographs, kana, hangul, emoji: code points from U+2E80). */
export const WIDE_CHAR_TOKENS = 1;
/** Tokens of one other non-ASCII character (accented Latin, Greek, Cyrillic). */
export const NARROW_NON_ASCII_TOKENS = 0.5;
/**
 * Tokens counted for one image or audio block, or an embedded binary resource: its base64 is not
 * text the model reads. 1,600 is Anthropic's figure for an image at the default resolution
 * (width x height / 750 for about 1.15 megapixels); a stated rule, not a measurement.
 */
export const MEDIA_BLOCK_TOKENS = 1_600;

const CODE_0 = 48;
const CODE_9 = 57;
const CODE_A = 65;
const CODE_Z = 90;
const CODE_LOWER_A = 97;
const CODE_LOWER_Z = 122;
const CODE_SPACE = 32;
const CODE_TAB = 9;
const CODE_LF = 10;
const CODE_CR = 13;
const LAST_ASCII = 127;
const FIRST_WIDE = 0x2e80;

function isUpper(code: number): boolean {
  return code >= CODE_A && code <= CODE_Z;
}

function isLower(code: number): boolean {
  return code >= CODE_LOWER_A && code <= CODE_LOWER_Z;
}

function isDigit(code: number): boolean {
  return code >= CODE_0 && code <= CODE_9;
}

function isBreak(code: number): boolean {
  return code === CODE_LF || code === CODE_CR || code === CODE_TAB;
}

function isPunctuation(code: number): boolean {
  return (
    code > CODE_SPACE && code <= LAST_ASCII && !isUpper(code) && !isLower(code) && !isDigit(code)
  );
}

/** The end of the run of `text` that starts at `start` and continues while `more` holds. */
function runEnd(text: string, start: number, more: (code: number, previous: number) => boolean) {
  let end = start + 1;
  while (end < text.length && more(text.charCodeAt(end), text.charCodeAt(end - 1))) end += 1;
  return end;
}

const continuesWord = (code: number, previous: number) =>
  isLower(code) || (isUpper(code) && !isLower(previous));
const continuesBreak = (code: number) => isBreak(code) || code === CODE_SPACE;

/** Estimated tokens of a text, by the run rule above (0 for the empty string). */
export function estimateTextTokens(text: string): number {
  let tokens = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    let end: number;
    if (isUpper(code) || isLower(code)) {
      end = runEnd(text, index, continuesWord);
      tokens += Math.ceil((end - index) / WORD_CHARS_PER_TOKEN);
    } else if (isDigit(code)) {
      end = runEnd(text, index, isDigit);
      tokens += Math.ceil((end - index) / DIGITS_PER_TOKEN);
    } else if (code === CODE_SPACE) {
      // One space joins the word after it; a longer run is a token of its own.
      end = runEnd(text, index, (next) => next === CODE_SPACE);
      if (end - index > 1) tokens += 1;
    } else if (isBreak(code)) {
      end = runEnd(text, index, continuesBreak);
      tokens += 1;
    } else if (isPunctuation(code)) {
      end = runEnd(text, index, isPunctuation);
      tokens += Math.ceil((end - index) / PUNCTUATION_CHARS_PER_TOKEN);
    } else {
      end = index + 1;
      tokens += code >= FIRST_WIDE ? WIDE_CHAR_TOKENS : NARROW_NON_ASCII_TOKENS;
    }
    index = end;
  }
  return Math.ceil(tokens);
}

/** True for a value shaped like an MCP `CallToolResult`: a `content` array of typed blocks. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    isPlainObject(value) &&
    Array.isArray(value.content) &&
    value.content.every((block) => isPlainObject(block) && typeof block.type === 'string')
  );
}

/** The compact JSON of `value`, or its string form when it has none (a cycle, a BigInt). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/**
 * Estimated tokens of one content block: a text block's text; an image or audio block, or an
 * embedded binary resource, `MEDIA_BLOCK_TOKENS`; an embedded text resource, its text and URI;
 * anything else (a `resource_link`, an unknown type), its compact JSON.
 */
export function estimateBlockTokens(block: CallToolResult['content'][number]): number {
  if (block.type === 'text') return estimateTextTokens(block.text);
  if (block.type === 'image' || block.type === 'audio') return MEDIA_BLOCK_TOKENS;
  if (block.type === 'resource') {
    const resource = block.resource;
    return 'text' in resource && typeof resource.text === 'string'
      ? estimateTextTokens(resource.text) + estimateTextTokens(resource.uri)
      : MEDIA_BLOCK_TOKENS;
  }
  return estimateTextTokens(jsonText(block));
}

/**
 * Estimated tokens of what a result puts before a model: every content block, plus the compact
 * JSON of `structuredContent` when present (a host may show both; `isError` and `_meta` cost
 * nothing, as no host shows `_meta` to the model).
 */
export function estimateResultTokens(result: CallToolResult): number {
  let tokens = 0;
  for (const block of result.content) tokens += estimateBlockTokens(block);
  if (result.structuredContent !== undefined) {
    tokens += estimateTextTokens(jsonText(result.structuredContent));
  }
  return tokens;
}

/**
 * Estimated o200k tokens of `value`, without a tokenizer: within ±25 % of o200k on every sample
 * of the repository's corpus (`test/fixtures/token-corpus/`; decision 0043 has the figures).
 * A string is counted as text, an MCP `CallToolResult` as the model sees it
 * (`estimateResultTokens`), `undefined` as 0, and any other value as its compact JSON.
 * Claude's tokenizers count about 1.2-1.35x more on the same text; budgets leave that margin.
 */
export function estimateTokens(value: unknown): number {
  if (typeof value === 'string') return estimateTextTokens(value);
  if (value === undefined) return 0;
  if (isCallToolResult(value)) return estimateResultTokens(value);
  return estimateTextTokens(jsonText(value));
}
