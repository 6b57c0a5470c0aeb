/**
 * Body reads that stop when a signal aborts, even when the stream ignores cancellation, over both
 * kinds of body the wire sees: a WHATWG stream (`fetch`, test fixtures) and a Node stream (the
 * undici client). Wire functions start no timers: a deadline is a machine state that aborts the
 * signal.
 */
import { raceAbort } from '../../binding/kernel/race-abort.js';

export { raceAbort };

/** A Node readable as undici returns it: async-iterable chunks and an immediate `destroy`. */
export interface NodeBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
  /** True once the body was read to its end (its socket is back in the pool). */
  readonly readableEnded?: boolean;
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
  return { next: () => iterator.next(), release: () => releaseNodeBody(body) };
}

/** Releases a Node body without waiting: only one not read to its end is destroyed. */
function releaseNodeBody(body: NodeBody): void {
  // A body read to its end has given its socket back to the pool; only a partial one is cut.
  if (body.readableEnded === true) return;
  try {
    body.destroy();
  } catch {
    // A stream that already failed has nothing left to release.
  }
}

/** Never throws, never leaves an unhandled rejection; safe on a used or locked body. */
export function cancelBody(response: WireResponse): void {
  const body = response.body;
  if (body === null) return;
  if (!isWebStream(body)) {
    releaseNodeBody(body);
    return;
  }
  if (body.locked) return;
  try {
    body.cancel().then(undefined, () => undefined);
  } catch {
    // Some runtimes throw synchronously on a disturbed body; nothing is left to release.
  }
}

/**
 * A Node readable that emits its chunks as events, as undici's body does: read by listening, which
 * costs a fraction of async iteration (no iterator, no promise per chunk, no abort race per chunk).
 */
interface EventedBody extends NodeBody {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  readonly destroyed?: boolean;
  readonly errored?: unknown;
}

function isEventedBody(body: WireBody): body is EventedBody {
  const candidate = body as Partial<EventedBody>;
  return typeof candidate.on === 'function' && typeof candidate.off === 'function';
}

/**
 * Hands every chunk of `body` to `onChunk` until the body ends, and resolves then. A throw from
 * `onChunk` stops the read and rejects with it; an abort rejects at once with `signal.reason`; a
 * failing body rejects with its error (with `signal.reason` once aborted). The body is released on
 * every path but its end: a Node body is destroyed unless it was read to its end.
 */
export function forEachChunk(
  body: WireBody,
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (isEventedBody(body)) return listenForChunks(body, signal, onChunk);
  return iterateChunks(body, signal, onChunk);
}

async function iterateChunks(
  body: WireBody,
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const chunks = openChunks(body);
  try {
    for (;;) {
      const { done, value } = await readChunk(chunks, signal);
      if (done) return;
      onChunk(value);
    }
  } finally {
    chunks.release();
  }
}

function listenForChunks(
  body: EventedBody,
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  // A body that failed or was cut before anyone listened emits nothing more.
  if (body.readableEnded === true) return Promise.resolve();
  if (body.destroyed === true) {
    return Promise.reject(body.errored ?? prematureClose());
  }
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) {
        resolve();
        return;
      }
      releaseNodeBody(body);
      reject(error);
    };
    const onData = (chunk: Uint8Array): void => {
      if (settled) return;
      try {
        onChunk(chunk);
      } catch (error) {
        finish(error);
      }
    };
    const onEnd = (): void => finish();
    const onError = (error: unknown): void => finish(signal.aborted ? signal.reason : error);
    // 'close' after 'end' finds the read settled; before it, the body was cut without an error.
    const onClose = (): void => finish(signal.aborted ? signal.reason : prematureClose());
    const onAbort = (): void => finish(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
    body.on('data', onData);
  });
}

/** A body cut before its end, with Node's own code for it (read as a closed connection). */
function prematureClose(): Error {
  return Object.assign(new Error('the response body closed before its end'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
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
