import { describe, expect, it } from 'vitest';
import { ConnectionResponseTooLargeError } from '../../../src/wire/errors/errors.js';
import {
  readSseBatches,
  readSseMessages,
  type SseBudget,
  type SseMessage,
} from '../../../src/wire/read/sse-reader.js';
import {
  type Handler,
  type LoopbackServer,
  liveSignal,
  serveEachTest,
  writeInChunks,
} from '../../support/loopback-server.js';

const serve = serveEachTest();

async function openStream(
  handler: Handler,
): Promise<{ response: Response; server: LoopbackServer }> {
  const server = await serve(handler);
  return { response: await fetch(new URL('/sse', server.origin)), server };
}

function streamOf(text: string, chunkSize = 4096): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return writeInChunks(res, new TextEncoder().encode(text), chunkSize);
  };
}

/** Writes `text` and keeps the response open until the client goes away. */
function openEnded(text: string): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(text);
  };
}

function budget(extra: Partial<SseBudget> = {}): SseBudget {
  return {
    connectionName: 'c',
    operation: 'tools/call',
    phase: 'call',
    maxBytes: 1_000_000,
    maxFrameBytes: 64 * 1024,
    signal: liveSignal(),
    ...extra,
  };
}

async function collect(response: Response, sseBudget: SseBudget): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSseMessages(response, sseBudget)) messages.push(message);
  return messages;
}

const FRAMES = [
  ': a comment line',
  'event: endpoint',
  'data: /messages?sessionId=abc',
  '',
  'id: 7',
  'data: {"jsonrpc":"2.0","id":1,',
  'data:"result":{}}',
  '',
  'event: ignored',
  '',
  'data: é€😀',
  '',
];
const EXPECTED: SseMessage[] = [
  { event: 'endpoint', data: '/messages?sessionId=abc' },
  { event: 'message', data: '{"jsonrpc":"2.0","id":1,\n"result":{}}', id: '7' },
  { event: 'message', data: 'é€😀' },
];

function join(newlines: readonly string[]): string {
  return FRAMES.map((line, index) => line + (newlines[index % newlines.length] as string)).join('');
}

describe.each([
  ['LF', ['\n']],
  ['CRLF', ['\r\n']],
  ['CR', ['\r']],
  ['mixed', ['\r\n', '\n', '\r']],
])('readSseMessages with %s newlines', (_label, newlines) => {
  it.each([1, 2, 4096])('frames identically in chunks of %i bytes', async (chunkSize) => {
    const { response } = await openStream(streamOf(join(newlines), chunkSize));
    expect(await collect(response, budget())).toEqual(EXPECTED);
  });
});

describe('readSseMessages on a stream kept open', () => {
  it.each([
    ['CR', 'data: one\r\r'],
    ['CRLF', 'data: one\r\n\r\n'],
    ['LF', 'data: one\n\n'],
  ])('hands out an event whose %s blank line ends the bytes sent so far', async (_label, text) => {
    const { response } = await openStream(openEnded(text));
    const reading = readSseMessages(response, budget())[Symbol.asyncIterator]();
    expect(await reading.next()).toEqual({ done: false, value: { event: 'message', data: 'one' } });
    await reading.return?.(undefined);
  });

  it('reads an LF after a chunk that ended in CR as the end of that CR line, not a blank line', async () => {
    const { response } = await openStream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // `data: a` CRLF, split between its CR and its LF, then more data of the same event.
      res.write('data: a\r');
      setTimeout(() => res.end('\ndata: b\r\n\r\n'), 50);
    });
    expect(await collect(response, budget())).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});

describe('readSseMessages budget', () => {
  it('charges comments and ignored frames to the total ceiling', async () => {
    const noise = ': keep-alive\n\nevent: other\ndata: {"id":99}\n\n'.repeat(10);
    const text = `${noise}data: the answer\n\n`;
    const bytes = new TextEncoder().encode(text).byteLength;
    const totals: number[] = [];
    const ok = await openStream(streamOf(text));
    const messages = await collect(
      ok.response,
      budget({ maxBytes: bytes, onBytes: (t) => totals.push(t) }),
    );
    expect(messages.at(-1)).toEqual({ event: 'message', data: 'the answer' });
    expect(totals.at(-1)).toBe(bytes);

    const short = await openStream(streamOf(text));
    const seen: SseMessage[] = [];
    const reading = (async () => {
      for await (const message of readSseMessages(
        short.response,
        budget({ maxBytes: bytes - 1 }),
      )) {
        seen.push(message);
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(seen.map((message) => message.data)).not.toContain('the answer');
  });

  it.each([1, 4096])(
    'accepts exactly N raw bytes and refuses N + 1 (chunks of %i)',
    async (chunkSize) => {
      const text = 'data: é€😀\r\n\r\n: c\r\ndata: two\r\n\r\n';
      const n = new TextEncoder().encode(text).byteLength;
      const exact = await openStream(streamOf(text, chunkSize));
      expect(await collect(exact.response, budget({ maxBytes: n }))).toHaveLength(2);

      const over = await openStream(streamOf(`${text}:`, chunkSize));
      const error = await collect(over.response, budget({ maxBytes: n })).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
      expect(error).toMatchObject({ maxBytes: n, operation: 'tools/call' });
      expect((error as ConnectionResponseTooLargeError).observedReadBytes).toBeGreaterThan(n);
    },
  );

  it('counts alreadyRead toward the total ceiling', async () => {
    const text = 'data: x\n\n';
    const { response } = await openStream(streamOf(text));
    await expect(collect(response, budget({ maxBytes: 10, alreadyRead: 2 }))).rejects.toMatchObject(
      {
        maxBytes: 10,
        observedReadBytes: 11,
      },
    );
  });

  it('delivers the frames that fit before refusing the rest', async () => {
    const { response } = await openStream(streamOf(`data: first\n\ndata: ${'x'.repeat(100)}\n\n`));
    const seen: string[] = [];
    const reading = (async () => {
      for await (const message of readSseMessages(response, budget({ maxBytes: 40 }))) {
        seen.push(message.data);
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(seen).toEqual(['first']);
  });

  it('refuses a partial frame past the per-frame ceiling before it completes', async () => {
    const { response, server } = await openStream(openEnded(`data: ${'x'.repeat(40)}`));
    const error = await collect(response, budget({ maxFrameBytes: 32 })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({ maxBytes: 32 });
    await server.requests[0]?.closed;
  });

  it('keeps the total ceiling unbounded when maxBytes is infinite', async () => {
    const text = 'data: x\n\n'.repeat(200);
    const totals: number[] = [];
    const { response } = await openStream(streamOf(text));
    const messages = await collect(
      response,
      budget({ maxBytes: Number.POSITIVE_INFINITY, onBytes: (total) => totals.push(total) }),
    );
    expect(messages).toHaveLength(200);
    expect(totals.at(-1)).toBe(text.length);
  });
});

/** A response whose body yields exactly these chunks, one read each. */
function chunkedResponse(chunks: readonly string[]): Response {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index];
      index += 1;
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('readSseBatches onEventBytes', () => {
  it('takes the total of each chunk that completes an event; onBytes the others', async () => {
    const chunks = ['data: a\n\ndata: b', '', '\n\n: comment\n\n', 'data: c', '\n\n'];
    const reports: string[] = [];
    const batches: string[][] = [];
    const reading = readSseBatches(
      chunkedResponse(chunks),
      budget({
        onBytes: (total) => reports.push(`onBytes ${total}`),
        onEventBytes: (total) => reports.push(`onEventBytes ${total}`),
      }),
    );
    for await (const batch of reading) {
      reports.push(`batch ${batch.map((message) => message.data).join(',')}`);
      batches.push(batch.map((message) => message.data));
    }
    // Each total is reported before the chunk's events are handed out. The empty chunk and the
    // one that only starts `c` complete no event.
    expect(reports).toEqual([
      'onEventBytes 16',
      'batch a',
      'onBytes 16',
      'onEventBytes 29',
      'batch b',
      'onBytes 36',
      'onEventBytes 38',
      'batch c',
    ]);
    expect(batches).toEqual([['a'], ['b'], ['c']]);
  });
});

describe('readSseMessages fields', () => {
  it('reports the retry field through onRetry', async () => {
    const retries: number[] = [];
    const { response } = await openStream(
      streamOf('retry: 1500\n\nid: 3\ndata: x\n\nretry: nope\n\n'),
    );
    const messages = await collect(response, budget({ onRetry: (ms) => retries.push(ms) }));
    expect(retries).toEqual([1500]);
    expect(messages).toEqual([{ event: 'message', data: 'x', id: '3' }]);
  });

  it('skips frames that carry no data', async () => {
    const { response } = await openStream(streamOf('event: ping\n\nid: 9\n\ndata: y\n\n'));
    expect(await collect(response, budget())).toEqual([{ event: 'message', data: 'y' }]);
  });
});

describe('readSseMessages cancellation', () => {
  it('cancels the server stream when the consumer returns early', async () => {
    const { response, server } = await openStream(openEnded('data: first\n\n'));
    for await (const message of readSseMessages(response, budget())) {
      expect(message.data).toBe('first');
      break;
    }
    await server.requests[0]?.closed;
    expect(response.bodyUsed).toBe(true);
  });

  it('rejects with the exact reason when the signal aborts mid-stream', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline state left');
    const { response, server } = await openStream(openEnded(': waiting\n\n'));
    const reading = collect(
      response,
      budget({ signal: controller.signal, onBytes: () => controller.abort(reason) }),
    );
    await expect(reading).rejects.toBe(reason);
    await server.requests[0]?.closed;
  });

  it('stops on abort while the consumer holds a message', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped');
    const { response } = await openStream(openEnded('data: a\n\ndata: b\n\n'));
    const seen: string[] = [];
    const reading = (async () => {
      for await (const message of readSseMessages(
        response,
        budget({ signal: controller.signal }),
      )) {
        seen.push(message.data);
        controller.abort(reason);
      }
    })();
    await expect(reading).rejects.toBe(reason);
    expect(seen).toEqual(['a']);
  });

  it('stops a stream that ignores cancellation when the signal aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline state left');
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(streamController) {
        if (sent) return new Promise<void>(() => undefined);
        sent = true;
        streamController.enqueue(new TextEncoder().encode(': hello\n\n'));
      },
      cancel: () => new Promise<void>(() => undefined),
    });
    const reading = collect(
      new Response(stream),
      budget({
        signal: controller.signal,
        onBytes: () => queueMicrotask(() => controller.abort(reason)),
      }),
    );
    await expect(reading).rejects.toBe(reason);
  });
});

describe('readSseBatches', () => {
  function chunked(...parts: string[]): Response {
    const encoder = new TextEncoder();
    return new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of parts) controller.enqueue(encoder.encode(part));
          controller.close();
        },
      }),
    );
  }

  it('yields one array per chunk that completes events, in order, and never an empty one', async () => {
    const response = chunked('data: a\n\ndata: b\n\n', ': only a comment\n\n', 'data: c\n', '\n');
    const batches: string[][] = [];
    for await (const batch of readSseBatches(response, budget())) {
      batches.push(batch.map((message) => message.data));
    }
    expect(batches).toEqual([['a', 'b'], ['c']]);
  });

  it('delivers the events of the chunk that fit, then refuses the rest', async () => {
    const response = chunked(`data: first\n\ndata: second\n\ndata: ${'x'.repeat(100)}\n\n`);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const batch of readSseBatches(response, budget({ maxBytes: 40 }))) {
        seen.push(...batch.map((message) => message.data));
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(seen).toEqual(['first', 'second']);
  });
});
