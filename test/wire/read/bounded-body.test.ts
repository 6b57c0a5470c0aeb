import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConnectionResponseTooLargeError } from '../../../src/wire/errors/errors.js';
import { ConnectionNetworkError } from '../../../src/wire/errors/network-error.js';
import { sendWithUndici } from '../../../src/wire/http/http-client.js';
import { cancelBody, type WireResponse } from '../../../src/wire/read/abortable-read.js';
import {
  drainBounded,
  MAX_ERROR_BODY_CHARS,
  type ReadBudget,
  readBoundedBytes,
  readBoundedText,
  readErrorExcerpt,
} from '../../../src/wire/read/bounded-body.js';
import {
  type Handler,
  type LoopbackServer,
  liveSignal,
  serveEachTest,
  writeInChunks,
} from '../../support/loopback-server.js';

const serve = serveEachTest();

type Get = (handler: Handler) => Promise<{ response: WireResponse; server: LoopbackServer }>;

/** A WHATWG body, read through a stream reader. */
const fetchGet = async (handler: Handler) => {
  const server = await serve(handler);
  return { response: await fetch(new URL('/body', server.origin)), server };
};

/** A Node body from the wire client (undici), read by listening to its events. */
const undiciGet: Get = async (handler) => {
  const server = await serve(handler);
  const url = new URL('/body', server.origin);
  const response = await sendWithUndici({ url, method: 'GET', headers: {}, signal: liveSignal() });
  return { response, server };
};

/** Both kinds of body the readers take. */
const CLIENTS: readonly [string, Get][] = [
  ['fetch', fetchGet],
  ['the undici wire client', undiciGet],
];

/** A Node body that is not behind a socket: the states a real one can be in when read. */
function nodeResponse(body: Readable): WireResponse {
  return { status: 200, ok: true, headers: { get: () => null }, body };
}

function budget(maxBytes: number, extra: Partial<ReadBudget> = {}): ReadBudget {
  return {
    connectionName: 'c',
    operation: 'tools/call',
    phase: 'call',
    maxBytes,
    signal: liveSignal(),
    ...extra,
  };
}

/** A body that enqueues `first` once, then never produces or honours cancellation. */
function stubbornResponse(first: Uint8Array, headers?: Record<string, string>): Response {
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(first);
        return;
      }
      return new Promise<void>(() => undefined);
    },
    cancel() {
      return new Promise<void>(() => undefined);
    },
  });
  return new Response(stream, { headers });
}

const TEXT = 'añ€😀'.repeat(40);
const BYTES = new TextEncoder().encode(TEXT);
const N = BYTES.byteLength;

describe.each(CLIENTS)('bodies from %s', (_client, get) => {
  describe.each([1, 2, 4096])('readBoundedText in chunks of %i bytes', (chunkSize) => {
    it('accepts exactly maxBytes of multibyte UTF-8 and decodes it', async () => {
      const { response } = await get((_req, res) => writeInChunks(res, BYTES, chunkSize));
      expect(await readBoundedText(response, budget(N))).toBe(TEXT);
    });

    it('refuses maxBytes + 1 with ConnectionResponseTooLargeError', async () => {
      const over = new Uint8Array([...BYTES, 0x21]);
      const { response } = await get((_req, res) => writeInChunks(res, over, chunkSize));
      const error = await readBoundedText(response, budget(N)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
      expect(error).toMatchObject({ maxBytes: N, operation: 'tools/call', phase: 'call' });
      expect((error as ConnectionResponseTooLargeError).observedReadBytes).toBeGreaterThan(N);
    });
  });

  it('decodes a leading BOM and invalid bytes as Response.text() does, even split across chunks', async () => {
    // BOM, "é" cut between chunks, a lone continuation byte, a truncated 3-byte sequence at the end.
    const raw = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9, 0x80, 0x62, 0xe2, 0x82]);
    const expected = await new Response(raw).text();
    expect(expected).toBe('aé\uFFFDb\uFFFD');
    const { response } = await get((_req, res) => writeInChunks(res, raw, 5));
    expect(await readBoundedText(response, budget(raw.byteLength))).toBe(expected);
  });

  describe('readBoundedBytes', () => {
    it('returns the raw bytes', async () => {
      const { response } = await get((_req, res) => writeInChunks(res, BYTES, 7));
      // Compared as plain bytes: the undici body's chunks are Buffers, which Node 26's equality
      // no longer takes for a Uint8Array.
      expect(new Uint8Array(await readBoundedBytes(response, budget(N)))).toEqual(BYTES);
    });

    it('counts alreadyRead against the ceiling', async () => {
      const five = new Uint8Array([1, 2, 3, 4, 5]);
      const ok = await get((_req, res) => res.end(five));
      expect((await readBoundedBytes(ok.response, budget(10, { alreadyRead: 5 }))).byteLength).toBe(
        5,
      );
      const over = await get((_req, res) => res.end(new Uint8Array(6)));
      await expect(
        readBoundedBytes(over.response, budget(10, { alreadyRead: 5 })),
      ).rejects.toMatchObject({
        observedReadBytes: 11,
      });
    });

    it('reports the running total, alreadyRead included, after each chunk', async () => {
      const totals: number[] = [];
      const { response } = await get((_req, res) => writeInChunks(res, BYTES, 64));
      await readBoundedBytes(
        response,
        budget(N + 100, { alreadyRead: 100, onBytes: (total) => totals.push(total) }),
      );
      expect(totals.length).toBeGreaterThan(0);
      expect(totals.at(-1)).toBe(N + 100);
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
    });
  });

  it('stops a drip-feed on abort with the exact reason after some bytes were observed', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline state left');
    const totals: number[] = [];
    const { response, server } = await get((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 5);
      res.on('close', () => clearInterval(timer));
    });
    const reading = readBoundedText(
      response,
      budget(1_000_000, {
        signal: controller.signal,
        onBytes: (total) => {
          totals.push(total);
          controller.abort(reason);
        },
      }),
    );
    await expect(reading).rejects.toBe(reason);
    expect(totals[0]).toBeGreaterThan(0);
    await server.requests[0]?.closed;
  });

  it('cuts the upstream once the ceiling is crossed', async () => {
    const { response, server } = await get((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write(new Uint8Array(1024)), 5);
      res.on('close', () => clearInterval(timer));
    });
    await expect(drainBounded(response, budget(4096))).rejects.toBeInstanceOf(
      ConnectionResponseTooLargeError,
    );
    await server.requests[0]?.closed;
  });

  it('returns an empty excerpt when the body fails mid-read', async () => {
    const { response } = await get((_req, res) => {
      res.writeHead(502, { 'content-length': '1000' });
      res.write('partial', () => res.destroy());
    });
    expect(await readErrorExcerpt(response, budget(10_000))).toBe('');
  });
});

describe('a Node body in each state it can be in when read', () => {
  it('rejects with its own error, typed, when it failed before anyone listened', async () => {
    const failure = new Error('socket hang up');
    const body = new Readable({ read() {} });
    body.on('error', () => undefined);
    body.destroy(failure);
    await new Promise((resolve) => setImmediate(resolve));
    const error = await readBoundedText(nodeResponse(body), budget(100)).catch((e: unknown) => e);
    // No code of ours names it: a network failure the client does not recognise, kept as cause.
    expect(error).toBeInstanceOf(ConnectionNetworkError);
    expect(error).toMatchObject({ failure: 'other', observedReadBytes: 0, cause: failure });
  });

  it('rejects when it is cut without an error before its end', async () => {
    const body = new Readable({ read() {} });
    body.push('abc');
    const reading = readBoundedText(nodeResponse(body), budget(100));
    setImmediate(() => body.destroy());
    const error = await reading.then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    // A cut body is a connection closed early, typed, with the bytes read by then.
    expect(error).toBeInstanceOf(ConnectionNetworkError);
    expect(error).toMatchObject({ failure: 'closed', observedReadBytes: 3 });
    expect((error as Error).cause).toMatchObject({
      message: 'the response body closed before its end',
    });
  });

  it('rejects a failure mid-read typed, its cause the failure, and the exact reason once aborted', async () => {
    const failure = new Error('other side closed');
    const body = new Readable({ read() {} });
    body.push('abc');
    const reading = readBoundedText(nodeResponse(body), budget(100));
    setImmediate(() => body.destroy(failure));
    const error = await reading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionNetworkError);
    expect(error).toMatchObject({ failure: 'other', observedReadBytes: 3, cause: failure });
    const controller = new AbortController();
    const reason = new Error('deadline');
    const aborted = new Readable({ read() {} });
    const stopped = readBoundedText(
      nodeResponse(aborted),
      budget(100, { signal: controller.signal }),
    );
    controller.abort(reason);
    await expect(stopped).rejects.toBe(reason);
    expect(aborted.destroyed).toBe(true);
  });

  it('reads one whose end was already consumed as empty, and leaves a read one undestroyed', async () => {
    const ended = Readable.from([]);
    ended.resume();
    await new Promise((resolve) => ended.once('end', resolve));
    expect(await readBoundedText(nodeResponse(ended), budget(100))).toBe('');
    const whole = Readable.from([Buffer.from('abc')]);
    expect(await readBoundedText(nodeResponse(whole), budget(100))).toBe('abc');
    expect(whole.readableEnded).toBe(true);
  });

  it('destroys it once the ceiling is crossed, reporting the bytes seen', async () => {
    const body = Readable.from([Buffer.alloc(60), Buffer.alloc(60)]);
    const error = await readBoundedText(nodeResponse(body), budget(100)).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect((error as ConnectionResponseTooLargeError).observedReadBytes).toBe(120);
    expect(body.destroyed).toBe(true);
  });
});

describe('Content-Length is not trusted', () => {
  it('refuses a body larger than its declared Content-Length claims', async () => {
    const response = new Response(new Uint8Array(100), { headers: { 'content-length': '1' } });
    await expect(readBoundedBytes(response, budget(10))).rejects.toBeInstanceOf(
      ConnectionResponseTooLargeError,
    );
  });

  it('accepts a small body whose Content-Length claims more than the ceiling', async () => {
    const response = new Response('abc', { headers: { 'content-length': '999999999' } });
    expect(await readBoundedText(response, budget(10))).toBe('abc');
  });
});

describe('cancellation', () => {
  it('stops a stream that ignores cancellation when the signal aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline state left');
    let observed = 0;
    const reading = readBoundedText(
      stubbornResponse(new Uint8Array([0x41])),
      budget(100, {
        signal: controller.signal,
        onBytes: (total) => {
          observed = total;
          queueMicrotask(() => controller.abort(reason));
        },
      }),
    );
    await expect(reading).rejects.toBe(reason);
    expect(observed).toBe(1);
  });

  it('rejects at once with the exact reason when the signal is already aborted', async () => {
    const reason = new Error('stopped');
    const response = new Response('abc');
    await expect(
      readBoundedText(response, budget(10, { signal: AbortSignal.abort(reason) })),
    ).rejects.toBe(reason);
  });
});

describe('readErrorExcerpt', () => {
  it('keeps at most 512 characters of a larger error body', async () => {
    const { response } = await fetchGet((_req, res) => res.writeHead(500).end('é'.repeat(2000)));
    const excerpt = await readErrorExcerpt(response, budget(100_000));
    expect(MAX_ERROR_BODY_CHARS).toBe(512);
    expect(excerpt).toBe('é'.repeat(512));
  });

  it('returns a short error body whole', async () => {
    const { response } = await fetchGet((_req, res) => res.writeHead(400).end('bad request'));
    expect(await readErrorExcerpt(response, budget(1000))).toBe('bad request');
  });

  it('rethrows a size error instead of returning an excerpt', async () => {
    const { response } = await fetchGet((_req, res) => res.writeHead(400).end('x'.repeat(200)));
    await expect(readErrorExcerpt(response, budget(64))).rejects.toBeInstanceOf(
      ConnectionResponseTooLargeError,
    );
  });

  it('keeps the exact abort reason', async () => {
    const controller = new AbortController();
    const reason = new Error('caller stopped');
    const reading = readErrorExcerpt(
      stubbornResponse(new Uint8Array([0x41])),
      budget(100, {
        signal: controller.signal,
        onBytes: () => queueMicrotask(() => controller.abort(reason)),
      }),
    );
    await expect(reading).rejects.toBe(reason);
  });
});

describe('cancelBody', () => {
  it('never throws on a fresh, used or bodiless response', async () => {
    const used = new Response('abc');
    await used.text();
    expect(() => {
      cancelBody(new Response('abc'));
      cancelBody(used);
      cancelBody(new Response(null, { status: 204 }));
    }).not.toThrow();
  });

  it('cancels a stream that rejects its cancellation without an unhandled rejection', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      cancel() {
        cancelled = true;
        return Promise.reject(new Error('refuses'));
      },
    });
    cancelBody(new Response(stream));
    await new Promise((resolve) => setImmediate(resolve));
    expect(cancelled).toBe(true);
  });
});
