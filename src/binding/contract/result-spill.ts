/**
 * Where the whole payload of a cut result is kept for the model to read on (issue 46, decision
 * 0044): a file inside the host's file boundary, written in the background while the presenter
 * answers, read back page by page by `read_result`. Bounded: the last `MAX_SPILLED_RESULTS`
 * results of a boundary, each for at most `SPILLED_RESULT_TTL_MS`, in files whose names are ours
 * (a slot number), so no id or path the model sends ever names a file.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../kernel/app-error.js';
import { estimateTextTokens } from './estimate-tokens.js';
import type { SpilledResult } from './result-budget.js';
import { formatCount } from './result-cut.js';

/** How many spilled results a boundary keeps; the next one replaces the oldest file. */
export const MAX_SPILLED_RESULTS = 32;
/** How long a spilled result can be read, in milliseconds (one hour). */
export const SPILLED_RESULT_TTL_MS = 3_600_000;
/** The largest payload spilled, in bytes; a larger one is cut without a file. */
export const MAX_SPILLED_RESULT_BYTES = 16 * 1_048_576;
/** The folder under the boundary's root the spilled results are written into. */
export const SPILL_FOLDER = 'stitchkit-results';
/** The most characters one token is taken to cover when a page's window is chosen. */
const MAX_CHARS_PER_TOKEN = 16;
/** Tokens of a page kept for its trailer (where the page sits and how to read on). */
const PAGE_TRAILER_TOKENS = 80;

/**
 * What a spill needs of a file boundary: the `FileBoundary` of `createFileBoundary` (ADR 0081)
 * has this shape, so the binding depends on no file system code of its own.
 */
export interface ResultSpillBoundary {
  /** The root every path is relative to. */
  readonly root: string;
  /** Writes `body` at `path` (relative to the root), replacing a file already there. */
  write(
    path: string,
    body: Uint8Array,
    options?: { readonly ifExists?: 'refuse' | 'replace'; readonly mediaType?: string },
  ): Promise<{ readonly path: string; readonly size: number }>;
  /** Opens the file at `path` for reading. */
  read(path: string): Promise<{ readonly stream: ReadableStream<Uint8Array> }>;
}

/** One page of a spilled result, as `read_result` answers it. */
export interface SpilledPage {
  /** The page's text: a substring of the payload, so the pages concatenate to it. */
  readonly text: string;
  /** Where the page starts in the payload, in characters (UTF-16 code units). */
  readonly offset: number;
  /** Where the next page starts; equal to `totalChars` on the last page. */
  readonly nextOffset: number;
  /** The payload's length in characters. */
  readonly totalChars: number;
}

interface SpillEntry {
  readonly id: string;
  readonly path: string;
  readonly chars: number;
  readonly budgetTokens: number;
  readonly keptAt: number;
  /** Resolves once the file is in place; rejects with why it is not. */
  readonly written: Promise<void>;
}

/** The spilled results of one boundary, and the pages read from them. */
export interface ResultSpillStore {
  /** The boundary the files live in. */
  readonly boundary: ResultSpillBoundary;
  /** Starts writing `payload` and returns its id and file; `undefined` when it is too large. */
  keep(payload: string, budgetTokens: number): SpilledResult | undefined;
  /** The page of result `id` from `offset`, at most `length` characters and within its budget. */
  page(id: string, offset: number, length?: number): Promise<SpilledPage>;
}

/** A spilled result that is not (or no longer) kept: the model is told, never the path. */
function notKept(id: string): AppError {
  return new AppError('RESULT_NOT_KEPT', {
    message: `No spilled result "${id.slice(0, 64)}" is kept (the most recent ${MAX_SPILLED_RESULTS} are, for an hour); call the tool again.`,
    status: 404,
    retryable: false,
  });
}

async function readText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

function isSurrogateTail(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The end of a page of `text` from `offset` within `tokens` and `length` characters: sized by the
 * page's own density and checked, then moved back to a line end in its second half when there is
 * one; never inside a surrogate pair, and at least one character.
 */
export function pageEnd(text: string, offset: number, tokens: number, length: number): number {
  // No text costs less than a token per 16 characters (the densest word run is 8), so the page
  // is sized within that window instead of estimating the whole rest of the payload each time.
  const limit = Math.min(text.length, offset + length, offset + tokens * MAX_CHARS_PER_TOKEN);
  let end = limit;
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const spent = estimateTextTokens(text.slice(offset, end));
    if (spent <= tokens) break;
    end = offset + Math.max(1, Math.floor(((end - offset) * tokens * 0.97) / spent));
  }
  if (end < limit) {
    const line = text.lastIndexOf('\n', end - 1);
    if (line >= offset && line + 1 - offset >= (end - offset) / 2) end = line + 1;
  }
  if (end < text.length && end > offset + 1 && isSurrogateTail(text, end)) end -= 1;
  return Math.max(end, Math.min(offset + 1, text.length));
}

/** The trailer of a page: where it sits in the payload, and how to read on. */
export function pageTrailer(id: string, page: SpilledPage): string {
  const where = `[Characters ${formatCount(page.offset)}–${formatCount(page.nextOffset)} of ${formatCount(page.totalChars)} of result ${id}.`;
  return page.nextOffset >= page.totalChars
    ? `${where} This is the end of the result.]`
    : `${where} Read on with read_result {"id":"${id}","offset":${page.nextOffset}}.]`;
}

const stores = new Map<string, ResultSpillStore>();

/**
 * The spill store of `boundary`: one per root in this process, so every mount spilling into one
 * root shares its slots, its ids and its `read_result`.
 */
export function resultSpillStoreOf(boundary: ResultSpillBoundary): ResultSpillStore {
  const known = stores.get(boundary.root);
  if (known !== undefined) return known;
  const store = createStore(boundary);
  stores.set(boundary.root, store);
  return store;
}

function createStore(boundary: ResultSpillBoundary): ResultSpillStore {
  const entries = new Map<string, SpillEntry>();
  // Each slot's last write: the next write to the slot starts after it, so a slot's file always
  // ends as its newest result (two replacing writes in flight would land in either order).
  const slotWrites = new Map<string, Promise<void>>();
  let next = 0;
  // The last page read is kept in memory, so paging through one result reads its file once.
  let cached: { id: string; text: string } | undefined;

  function keep(payload: string, budgetTokens: number): SpilledResult | undefined {
    const body = new TextEncoder().encode(payload);
    if (body.byteLength > MAX_SPILLED_RESULT_BYTES) return undefined;
    const slot = next % MAX_SPILLED_RESULTS;
    next += 1;
    const path = `${SPILL_FOLDER}/${String(slot).padStart(2, '0')}.txt`;
    // The slot's previous result is gone once its file is replaced.
    for (const [id, entry] of entries) if (entry.path === path) entries.delete(id);
    const id = `r${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const written = (slotWrites.get(path) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => boundary.write(path, body, { ifExists: 'replace', mediaType: 'text/plain' }))
      .then(() => undefined);
    slotWrites.set(path, written);
    // A failed write surfaces when the result is read; it must not be an unhandled rejection.
    written.catch(() => entries.delete(id));
    entries.set(id, { id, path, chars: payload.length, budgetTokens, keptAt: Date.now(), written });
    return { id, path };
  }

  async function textOf(entry: SpillEntry): Promise<string> {
    if (cached?.id === entry.id) return cached.text;
    try {
      await entry.written;
      const text = await readText((await boundary.read(entry.path)).stream);
      // Another process or mount may have replaced the file: the length tells.
      if (text.length !== entry.chars) throw new Error('the spilled file changed');
      cached = { id: entry.id, text };
      return text;
    } catch (error) {
      entries.delete(entry.id);
      throw new AppError('RESULT_NOT_KEPT', {
        message: `The spilled result "${entry.id}" cannot be read; call the tool again.`,
        status: 404,
        retryable: false,
        cause: error,
      });
    }
  }

  async function page(id: string, offset: number, length?: number): Promise<SpilledPage> {
    const entry = entries.get(id);
    if (entry === undefined || Date.now() - entry.keptAt > SPILLED_RESULT_TTL_MS) {
      entries.delete(id);
      throw notKept(id);
    }
    const text = await textOf(entry);
    const start = Math.min(offset, text.length);
    const tokens = Math.max(1, entry.budgetTokens - PAGE_TRAILER_TOKENS);
    const end = pageEnd(text, start, tokens, length ?? text.length);
    return {
      text: text.slice(start, end),
      offset: start,
      nextOffset: end,
      totalChars: text.length,
    };
  }

  return { boundary, keep, page };
}
