/**
 * Reads server-sent events from a response with raw byte ceilings: one on the whole stream and
 * one per frame, both counted before decoding. Parsing is eventsource-parser's (the line the
 * MCP SDK uses); this module only meters, decodes and cancels.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ConnectionResponseTooLargeError } from '../errors/errors.js';
import { wireFailure } from '../errors/wire-failure.js';
import { openChunks, readChunk, throwIfAborted, type WireResponse } from './abortable-read.js';
import { type ReadBudget, scopeOfRead } from './bounded-body.js';
import { createSseFrameMeter } from './sse-frame-meter.js';

/** One dispatched SSE event. */
export interface SseMessage {
  /** The `event:` field; `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The `id:` field, when the frame had one. */
  id?: string;
}

/** A read budget plus the per-frame ceiling and the server's `retry:` report. */
export interface SseBudget extends ReadBudget {
  /** Ceiling on one frame's raw bytes, terminators and comments included. */
  maxFrameBytes: number;
  /** Called with each `retry:` value the server sends (the caller clamps it). */
  onRetry?: (retryMs: number) => void;
  /**
   * When set, a chunk that completes at least one event is reported here instead of to
   * `onBytes`, just before its events are yielded, so the consumer can count those bytes with the
   * events it hands on. A chunk that completes none still goes to `onBytes` at once.
   */
  onEventBytes?: (totalBytes: number) => void;
}

/**
 * The parser's own event object, its `event` defaulted to `message` in place: eventsource-parser
 * builds a fresh object per event and keeps no reference to it, so no copy is made per event.
 */
function toSseMessage(event: EventSourceMessage): SseMessage {
  if (event.event === undefined) event.event = 'message';
  return event as SseMessage;
}

/**
 * Yields the stream's events in order, one array per chunk read (never an empty one), so a
 * consumer pays one async step per chunk rather than per event. Comments and events the consumer
 * ignores still count against the budget. Bytes before a ceiling is crossed are still parsed, so
 * events that fit are delivered before the {@link ConnectionResponseTooLargeError}. Aborting the
 * signal rejects with `signal.reason`; leaving the consumer's loop early cancels the stream; any
 * other failure of the stream is typed by the wire's seam (`wireFailure`).
 */
export async function* readSseBatches(
  response: WireResponse,
  budget: SseBudget,
): AsyncGenerator<readonly SseMessage[], void, undefined> {
  const { signal } = budget;
  throwIfAborted(signal);
  const body = response.body;
  if (body === null) return;
  const pending: SseMessage[] = [];
  const parser = createParser({
    onEvent: (event) => pending.push(toSseMessage(event)),
    onRetry: (retryMs) => budget.onRetry?.(retryMs),
  });
  const decoder = new TextDecoder();
  const meter = createSseFrameMeter(budget.maxFrameBytes);
  const chunks = openChunks(body);
  let total = budget.alreadyRead ?? 0;
  // A CR alone ends a line (WHATWG SSE), but the parser holds a CR that ends a chunk until it
  // sees whether an LF follows, so an event on a stream kept open would wait for the next chunk.
  // A chunk's final CR is fed as CRLF at once, and an LF opening the next chunk is dropped.
  let lineEndedByCR = false;
  const lineEndsNow = (text: string): string => {
    if (text === '') return text;
    const rest = lineEndedByCR && text.startsWith('\n') ? text.slice(1) : text;
    lineEndedByCR = rest.endsWith('\r');
    return lineEndedByCR ? `${rest}\n` : rest;
  };
  try {
    for (;;) {
      const { done, value } = await readChunk(chunks, signal);
      if (done) {
        parser.feed(decoder.decode());
        if (pending.length > 0) yield pending.splice(0);
        return;
      }
      const before = total;
      total += value.byteLength;

      let usable = value.byteLength;
      let failure: ConnectionResponseTooLargeError | undefined;
      const frameOverflow = meter.measure(value);
      if (frameOverflow >= 0) {
        usable = frameOverflow;
        failure = new ConnectionResponseTooLargeError({
          ...budget,
          maxBytes: budget.maxFrameBytes,
          observedReadBytes: total,
        });
      }
      if (total > budget.maxBytes && budget.maxBytes - before < usable) {
        usable = Math.max(0, budget.maxBytes - before);
        failure = new ConnectionResponseTooLargeError({ ...budget, observedReadBytes: total });
      }
      const bytes = usable === value.byteLength ? value : value.subarray(0, usable);
      parser.feed(lineEndsNow(decoder.decode(bytes, { stream: true })));
      if (pending.length > 0 && budget.onEventBytes !== undefined) budget.onEventBytes(total);
      else budget.onBytes?.(total);
      if (pending.length > 0) {
        yield pending.splice(0);
        throwIfAborted(signal);
      }
      if (failure !== undefined) throw failure;
    }
  } catch (error) {
    // A stream cut by a reset, a closed socket or a broken framing: typed at the wire's one seam,
    // with the bytes read by then (the caller's reason and our own ceilings as they are).
    throw wireFailure(error, scopeOfRead(budget, total), signal);
  } finally {
    chunks.release();
  }
}

/**
 * {@link readSseBatches} one event at a time, for consumers that stop between events: no event is
 * handed out once the signal has aborted.
 */
export async function* readSseMessages(
  response: WireResponse,
  budget: SseBudget,
): AsyncGenerator<SseMessage, void, undefined> {
  for await (const batch of readSseBatches(response, budget)) {
    for (const message of batch) {
      throwIfAborted(budget.signal);
      yield message;
    }
  }
}
