/**
 * Body reads that stop when a signal aborts, even when the stream ignores cancellation, over both
 * kinds of body the wire sees: a WHATWG stream (`fetch`, test fixtures) and a Node stream (the
 * undici client). Wire functions start no timers: a deadline is a machine state that aborts the
 * signal.
 */
import { raceAbort } from '../binding/race-abort.js';

export { raceAbort };

/** A Node readable as undici returns it: async-iterable chunks and an immediate `destroy`. */
export interface NodeBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
}

/** A response body as the readers take it. */
export type WireBody = ReadableStream<Uint8Array> | NodeBody;

/** What the readers need of an HTTP answer; a WHATWG `Response` is one. */
export interface WireResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: WireBody | null;
}

/** One body opened for reading: chunks on demand, and a release that never waits. */
export interface ChunkSource {
  next(): Promise<IteratorResult<Uint8Array, unknown>>;
  release(): void;
}

function isWebStream(body: WireBody): body is ReadableStream<Uint8Array> {
  return typeof (body as ReadableStream<Uint8Array>).getReader === 'function';
}

/**
 * Opens a body for reading. A WHATWG stream is read through a reader, whose `cancel` ends a
 * pending read at once (an async iterator's `return` would wait for it); a Node stream is
 * iterated and released by `destroy`.
 */
export function openChunks(body: WireBody): ChunkSource {
  if (isWebStream(body)) {
    const reader = body.getReader();
    return { next: () => reader.read(), release: () => releaseReader(reader) };
  }
  const iterator = body[Symbol.asyncIterator]();
  return {
    next: () => iterator.next(),
    release: () => {
      // A body read to its end has given its socket back to the pool; only a partial one is cut.
      if ((body as { readableEnded?: boolean }).readableEnded === true) return;
      try {
        body.destroy();
      } catch {
        // A stream that already failed has nothing left to release.
      }
    },
  };
}

/** Never throws, never leaves an unhandled rejection; safe on a used or locked body. */
export function cancelBody(response: WireResponse): void {
  const body = response.body;
  if (body === null) return;
  if (!isWebStream(body)) {
    openChunks(body).release();
    return;
  }
  if (body.locked) return;
  try {
    body.cancel().then(undefined, () => undefined);
  } catch {
    // Some runtimes throw synchronously on a disturbed body; nothing is left to release.
  }
}

/** Rejects at once with `signal.reason` when the signal has already aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/** One chunk raced against the signal. */
export function readChunk(
  source: ChunkSource,
  signal: AbortSignal,
): Promise<IteratorResult<Uint8Array, unknown>> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return raceAbort(source.next(), signal);
}

/**
 * Cancels the reader and releases its lock without waiting: a stream that ignores cancellation
 * must not hold the caller. Never throws.
 */
function releaseReader(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  try {
    reader.cancel().then(undefined, () => undefined);
  } catch {
    // A reader whose stream already errored may throw synchronously on some runtimes.
  }
  try {
    reader.releaseLock();
  } catch {
    // Releasing with a pending read throws on older stream implementations; the cancel suffices.
  }
}
