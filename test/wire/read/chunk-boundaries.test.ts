/**
 * What the readers make of a body cut at an awkward place: a WHATWG stream hands over exactly the
 * chunks written here, so each boundary falls where the row says (a loopback socket may merge
 * them). A multibyte character split between chunks, a body that ends inside one, a CR that ends
 * a chunk, an empty chunk, and the byte ceiling crossed inside the second chunk; and a Node body
 * (events, as undici's) handed a signal that already aborted.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConnectionResponseTooLargeError } from '../../../src/wire/errors/errors.js';
import { forEachChunk, type WireResponse } from '../../../src/wire/read/abortable-read.js';
import { readErrorExcerpt, scopeOfRead } from '../../../src/wire/read/bounded-body.js';
import { readSseBatches, type SseBudget } from '../../../src/wire/read/sse-reader.js';

const encoder = new TextEncoder();

/** A response whose body is exactly these chunks (strings are UTF-8 encoded). */
function chunked(status: number, ...chunks: readonly (string | readonly number[])[]): WireResponse {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(
          typeof chunk === 'string' ? encoder.encode(chunk) : new Uint8Array(chunk),
        );
      }
      controller.close();
    },
  });
  return new Response(body, { status });
}

const scope = { connectionName: 'c', operation: 'tools/call', phase: 'call' } as const;

function sseBudget(extra: Partial<SseBudget> = {}): SseBudget {
  return {
    ...scope,
    maxBytes: 1_000_000,
    maxFrameBytes: 64 * 1024,
    signal: new AbortController().signal,
    ...extra,
  };
}

/** Every event's data until the stream ends, and how it ended. */
async function dataOf(response: WireResponse, budget: SseBudget) {
  const data: string[] = [];
  try {
    for await (const batch of readSseBatches(response, budget)) {
      data.push(...batch.map((event) => event.data));
    }
    return { data, error: undefined };
  } catch (error) {
    return { data, error };
  }
}

describe('readErrorExcerpt across chunks', () => {
  const budget = { ...scope, maxBytes: 10_000, signal: new AbortController().signal };

  it('keeps a character whose bytes two chunks split', async () => {
    // "café": the two bytes of "é" are C3 A9.
    expect(await readErrorExcerpt(chunked(500, 'caf', [0xc3], [0xa9, 0x21]), budget)).toBe('café!');
  });

  it('ends a body cut inside a character with U+FFFD, as Response.text() does', async () => {
    expect(await readErrorExcerpt(chunked(500, 'abc', [0xc3]), budget)).toBe('abc\uFFFD');
  });
});

describe('scopeOfRead', () => {
  it('names the status that sent the run to legacy HTTP+SSE, and the bytes read', () => {
    expect(scopeOfRead({ ...scope, fallbackStatus: 404 }, 12)).toEqual({
      ...scope,
      observedReadBytes: 12,
      fallbackStatus: 404,
    });
    expect(scopeOfRead(scope, 12)).toEqual({ ...scope, observedReadBytes: 12 });
  });
});

describe('readSseBatches across chunks', () => {
  it('keeps a character whose bytes two chunks split', async () => {
    const read = await dataOf(chunked(200, 'data: caf', [0xc3], [0xa9], '\n\n'), sseBudget());
    expect(read).toEqual({ data: ['café'], error: undefined });
  });

  it.each([
    [
      'an LF that opens the next chunk, after an empty chunk',
      ['data: a\r', '', '\ndata: b\r\n\r\n'],
    ],
    ['an LF alone in the next chunk but one', ['data: a\r', '', '\ndata: b', '\n\n']],
    ['no LF after it', ['data: a\r', 'data: b\r\r']],
  ])('reads a CR that ends a chunk as the end of its line, with %s', async (_label, chunks) => {
    expect(await dataOf(chunked(200, ...chunks), sseBudget())).toEqual({
      data: ['a\nb'],
      error: undefined,
    });
  });

  it('delivers the events that fit before a ceiling the second chunk crosses, and no more', async () => {
    // 12 bytes, then 12 + 12: the ceiling (30) falls inside the second chunk's second event.
    const read = await dataOf(
      chunked(200, 'data: one\n\n', 'data: two\n\ndata: six\n\n'),
      sseBudget({ maxBytes: 30 }),
    );
    expect(read.data).toEqual(['one', 'two']);
    expect(read.error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(read.error).toMatchObject({ observedReadBytes: 33, maxBytes: 30 });
  });

  it('refuses a frame that a chunk takes over its ceiling with its very first byte', async () => {
    const read = await dataOf(
      chunked(200, 'data: 1234', '5\n\n'),
      sseBudget({ maxFrameBytes: 10 }),
    );
    expect(read.data).toEqual([]);
    expect(read.error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(read.error).toMatchObject({ maxBytes: 10 });
  });
});

describe('forEachChunk with a signal that already aborted', () => {
  it('rejects at once with its reason and hands over no chunk, from a Node body too', async () => {
    const controller = new AbortController();
    const reason = new Error('caller stopped');
    controller.abort(reason);
    const seen: Uint8Array[] = [];
    const body = Readable.from([encoder.encode('a'), encoder.encode('b')]);
    await expect(forEachChunk(body, controller.signal, (chunk) => seen.push(chunk))).rejects.toBe(
      reason,
    );
    expect(seen).toEqual([]);
    body.destroy();
  });
});
