/**
 * Bounded body reads. Every upstream byte is counted raw (Content-Length is not a trust
 * boundary), the ceiling is enforced while streaming, and the reader is always released.
 */

import type { OperationScope } from '../core/operation.js';
import { ConnectionResponseTooLargeError, MAX_ERROR_BODY_CHARS } from '../errors/errors.js';
import { wireFailure } from '../errors/wire-failure.js';
import { forEachChunk, throwIfAborted, type WireResponse } from './abortable-read.js';

export { MAX_ERROR_BODY_CHARS } from '../errors/errors.js';

/** How much the operation in `scope` may read, under which signal. */
export interface ReadBudget extends OperationScope {
  /** Ceiling on raw bytes for the whole operation, `alreadyRead` included. */
  maxBytes: number;
  /** Aborting it stops the read at once with `signal.reason`. */
  signal: AbortSignal;
  /** Bytes the operation already read elsewhere (e.g. an earlier response). */
  alreadyRead?: number;
  /** Called with the running total after each chunk. */
  onBytes?: (totalBytes: number) => void;
}

/** The scope of a read that failed after `observedReadBytes` raw bytes, for its typed error. */
export function scopeOfRead(budget: OperationScope, observedReadBytes: number): OperationScope {
  return {
    connectionName: budget.connectionName,
    operation: budget.operation,
    phase: budget.phase,
    observedReadBytes,
    ...(budget.fallbackStatus === undefined ? {} : { fallbackStatus: budget.fallbackStatus }),
  };
}

/**
 * Streams the body through `onChunk`, counting raw bytes against the budget. Exactly `maxBytes`
 * passes; one more byte fails with {@link ConnectionResponseTooLargeError}.
 */
async function consumeBounded(
  response: WireResponse,
  budget: ReadBudget,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const { signal } = budget;
  throwIfAborted(signal);
  const body = response.body;
  if (body === null) return;
  let total = budget.alreadyRead ?? 0;
  try {
    await forEachChunk(body, signal, (chunk) => {
      total += chunk.byteLength;
      budget.onBytes?.(total);
      if (total > budget.maxBytes)
        throw new ConnectionResponseTooLargeError({ ...budget, observedReadBytes: total });
      onChunk(chunk);
    });
  } catch (error) {
    // A body cut by a reset, a closed socket or a broken framing: typed at the wire's one seam,
    // with the bytes read by then (the caller's reason and our own ceiling as they are).
    throw wireFailure(error, scopeOfRead(budget, total), signal);
  }
}

/**
 * Reads the whole body as bytes within the budget. A body that arrived in one chunk is returned as
 * that chunk, uncopied: a view that may share its buffer with the socket read it came in, so a
 * caller that keeps the bytes long should copy them.
 */
export async function readBoundedBytes(
  response: WireResponse,
  budget: ReadBudget,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  await consumeBounded(response, budget, (chunk) => {
    chunks.push(chunk);
    length += chunk.byteLength;
  });
  // Most answers arrive in one chunk, which is already the whole body.
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * One decoder for every whole-body read: a call without `stream` keeps no state between calls,
 * and preparing a decoder costs more than a short body costs to decode (decision 0022).
 */
const UTF8 = new TextDecoder();

/**
 * Reads the whole body as UTF-8 text within the budget, decoded once at its end, so a multibyte
 * character split across chunks is whole; invalid bytes become U+FFFD and a leading BOM is
 * dropped, as `Response.text()` does.
 */
export async function readBoundedText(response: WireResponse, budget: ReadBudget): Promise<string> {
  return UTF8.decode(await readBoundedBytes(response, budget));
}

/** Reads and discards the body within the budget (e.g. a notification's answer). */
export function drainBounded(response: WireResponse, budget: ReadBudget): Promise<void> {
  return consumeBounded(response, budget, () => undefined);
}

/**
 * Best-effort excerpt of an error body: bounded by the budget, at most
 * {@link MAX_ERROR_BODY_CHARS} characters kept. Abort rethrows the exact `signal.reason`, a size
 * error rethrows; any other read failure yields `''`.
 */
export async function readErrorExcerpt(
  response: WireResponse,
  budget: ReadBudget,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    // The whole body is still read to the ceiling (an oversized error body is a size refusal),
    // but only the excerpt is kept in memory.
    await consumeBounded(response, budget, (chunk) => {
      if (text.length < MAX_ERROR_BODY_CHARS) text += decoder.decode(chunk, { stream: true });
    });
    if (text.length < MAX_ERROR_BODY_CHARS) text += decoder.decode();
    return text.slice(0, MAX_ERROR_BODY_CHARS);
  } catch (error) {
    if (budget.signal.aborted) throw budget.signal.reason;
    if (ConnectionResponseTooLargeError.isInstance(error)) throw error;
    return '';
  }
}
