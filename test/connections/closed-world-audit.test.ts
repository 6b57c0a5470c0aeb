/**
 * Answers no HTTP library writes, played byte by byte by a raw TCP server on 127.0.0.1: a status
 * line that is not one, a head cut or reset, a chunk size that is not hex, `Transfer-Encoding`
 * with `Content-Length`, an unsolicited `100 Continue` or `101 Switching Protocols`, a 200 kB
 * header line, an HTTP/1.0 body delimited by the close, an SSE answer with a NUL or with lone CRs,
 * and plain HTTP on an https URL. Each is played at discovery (the `initialize` of MCP
 * 2025-11-25) and at a call (`tools/call`); each ends typed with the operation that broke, or
 * succeeds where the answer is whole. An unsolicited `100` or `101` broke HTTP/1.1, not the
 * connection: a protocol failure, never retried (decision 0035).
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  type McpClientConnectionConfig,
  mountConnections,
} from '../../src/connections/index.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

/** Writes a hostile answer to `socket` for a request whose correct JSON-RPC answer is `answer`. */
type Play = (socket: Socket, answer: string) => void;

/** A raw server: correct MCP 2025-11-25 JSON answers, except `play` for the methods in `faulted`. */
interface RawServer {
  readonly origin: string;
  /** The JSON-RPC methods of the requests it saw, in order. */
  readonly methods: string[];
  close(): Promise<void>;
}

const TOOLS = [
  {
    name: 'echo',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  },
];

/** The correct answer to a JSON-RPC request of 2025-11-25, or `undefined` for a notification. */
function answerTo(message: { id?: number | string; method?: string; params?: unknown }) {
  if (message.id === undefined) return undefined;
  const result =
    message.method === 'initialize'
      ? {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'raw', version: '1.0.0' },
        }
      : message.method === 'tools/list'
        ? { tools: TOOLS }
        : { content: [{ type: 'text', text: 'Echo: hi' }] };
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
}

const head = (...lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
const json = (status: string, body: string) =>
  head(status, 'content-type: application/json', `content-length: ${Buffer.byteLength(body)}`) +
  body;

async function startRaw(faulted: ReadonlySet<string>, play: Play): Promise<RawServer> {
  const methods: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = /\r\ncontent-length: *(\d+)/i.exec(pending.subarray(0, end).toString());
        const size = Number(length?.[1] ?? 0);
        if (pending.length < end + 4 + size) return;
        const body = pending.subarray(end + 4, end + 4 + size).toString();
        pending = pending.subarray(end + 4 + size);
        const message = body === '' ? {} : (JSON.parse(body) as { method?: string; id?: number });
        methods.push(message.method ?? '');
        const answer = answerTo(message);
        if (message.method !== undefined && faulted.has(message.method)) play(socket, answer ?? '');
        else
          socket.write(
            answer === undefined
              ? json('HTTP/1.1 202 Accepted', '')
              : json('HTTP/1.1 200 OK', answer),
          );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `127.0.0.1:${port}`,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Deadlines far past what any row takes: no row waits for one. */
const TIMEOUT_MS = 10_000;

function connection(url: string, extra: Partial<McpClientConnectionConfig> = {}) {
  return defineMcpClientConnection({
    name: 'raw',
    timeoutMs: TIMEOUT_MS,
    ...extra,
    transport: { url, protocolVersion: '2025-11-25' },
  });
}

const JSON_HEAD = (answer: string) =>
  head(
    'HTTP/1.1 200 OK',
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(answer)}`,
  );

/** The hostile answers, and what each must end in: an error class (with its `failure`) or ok. */
const ROWS: ReadonlyArray<readonly [string, Play, string]> = [
  [
    'a status line that is not one',
    (s) => s.end(head('HTTP/1.1 2x0 OK')),
    'ConnectionProtocolError',
  ],
  [
    'a head cut mid-line',
    (s) => s.end('HTTP/1.1 200 OK\r\ncontent-ty'),
    'ConnectionNetworkError closed',
  ],
  [
    'a whole head, then a reset',
    (s, answer) => {
      s.write(JSON_HEAD(answer));
      setTimeout(() => s.resetAndDestroy(), 20);
    },
    'ConnectionNetworkError reset',
  ],
  [
    'a chunk size that is not hex',
    (s, answer) =>
      s.end(`${head('HTTP/1.1 200 OK', 'transfer-encoding: chunked')}zz\r\n${answer}\r\n0\r\n\r\n`),
    'ConnectionProtocolError',
  ],
  [
    'Transfer-Encoding and Content-Length both',
    (s, answer) =>
      s.write(
        `${head('HTTP/1.1 200 OK', 'transfer-encoding: chunked', `content-length: ${answer.length}`)}${answer.length.toString(16)}\r\n${answer}\r\n0\r\n\r\n`,
      ),
    'ConnectionProtocolError',
  ],
  [
    'an unsolicited 100 Continue, then the close',
    (s) => s.end(head('HTTP/1.1 100 Continue')),
    'ConnectionProtocolError',
  ],
  [
    'an unsolicited 100 Continue, then nothing',
    (s) => s.write(head('HTTP/1.1 100 Continue')),
    'ConnectionProtocolError',
  ],
  [
    'a 101 Switching Protocols nobody asked for',
    (s) =>
      s.write(
        `${head('HTTP/1.1 101 Switching Protocols', 'upgrade: websocket', 'connection: Upgrade')}\x81\x05hello`,
      ),
    'ConnectionProtocolError',
  ],
  [
    'a header line of 200 kB',
    (s, answer) => s.write(head('HTTP/1.1 200 OK', `x-big: ${'a'.repeat(200_000)}`) + answer),
    'ConnectionResponseTooLargeError',
  ],
  [
    'an HTTP/1.0 answer delimited by the close, whole',
    (s, answer) => s.end(head('HTTP/1.0 200 OK', 'content-type: application/json') + answer),
    'ok',
  ],
  [
    'an HTTP/1.0 answer delimited by the close, cut',
    (s, answer) =>
      s.end(head('HTTP/1.0 200 OK', 'content-type: application/json') + answer.slice(0, 9)),
    'ConnectionProtocolError',
  ],
  [
    'an SSE answer with a NUL inside its JSON',
    (s, answer) =>
      s.end(
        `${head('HTTP/1.1 200 OK', 'content-type: text/event-stream', 'connection: close')}event: message\ndata: ${answer.slice(0, 10)}\0${answer.slice(10)}\n\n`,
      ),
    'ConnectionProtocolError',
  ],
  [
    'an SSE answer whose lines end in lone CRs',
    (s, answer) =>
      s.end(
        `${head('HTTP/1.1 200 OK', 'content-type: text/event-stream', 'connection: close')}event: message\rdata: ${answer}\r\r`,
      ),
    'ok',
  ],
];

const unhandled = trackUnhandledRejections();
let baseline: ReturnType<typeof activeResourceCounts>;
beforeAll(() => {
  baseline = activeResourceCounts();
});
afterAll(async () => {
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

/** What a mount ended in: `ok`, or the error's class, `failure`, operation and phase. */
async function mountOutcome(url: string): Promise<string> {
  try {
    await mountConnections([connection(url)]);
    return 'ok';
  } catch (error) {
    const { name, failure, operation, phase } = error as Record<string, string | undefined>;
    return [name, failure, 'during', operation, phase].filter(Boolean).join(' ');
  }
}

describe('a raw answer at discovery (initialize)', () => {
  it.each(ROWS)('%s', async (_label, play, expected) => {
    const raw = await startRaw(new Set(['initialize']), play);
    try {
      const outcome = await mountOutcome(`http://${raw.origin}/mcp`);
      expect(outcome).toBe(expected === 'ok' ? 'ok' : `${expected} during initialize discovery`);
    } finally {
      await raw.close();
    }
  });

  it('plain HTTP on an https URL: ConnectionNetworkError tls during initialize', async () => {
    const plain = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end(json('HTTP/1.1 400 Bad Request', '')));
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = plain.address() as { port: number };
      expect(await mountOutcome(`https://127.0.0.1:${port}/mcp`)).toBe(
        'ConnectionNetworkError tls during initialize discovery',
      );
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});

describe('a raw answer at a call (tools/call)', () => {
  it.each(ROWS)('%s', async (_label, play, expected) => {
    const raw = await startRaw(new Set(['tools/call']), play);
    try {
      const [echo] = await mountConnections([connection(`http://${raw.origin}/mcp`)]);
      if (echo === undefined) throw new Error('echo not mounted');
      const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
      if (expected === 'ok') {
        expect(result).toMatchObject({ ok: true, data: { content: [{ text: 'Echo: hi' }] } });
        return;
      }
      const { name, failure, operation, phase } = toolCauseFromResult(result) as Record<
        string,
        string | undefined
      >;
      expect([name, failure, 'during', operation, phase].filter(Boolean).join(' ')).toBe(
        `${expected} during tools/call call`,
      );
    } finally {
      await raw.close();
    }
  });

  it('does not retry an unsolicited 101 (a broken answer, not a closed connection)', async () => {
    const raw = await startRaw(new Set(['tools/call']), (s) =>
      s.write(
        head('HTTP/1.1 101 Switching Protocols', 'upgrade: websocket', 'connection: Upgrade'),
      ),
    );
    try {
      const [echo] = await mountConnections([
        connection(`http://${raw.origin}/mcp`, { retry: { attempts: 3 } }),
      ]);
      if (echo === undefined) throw new Error('echo not mounted');
      const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
      expect(result).toMatchObject({
        ok: false,
        code: 'CONNECTION_PROTOCOL_ERROR',
        retryable: false,
      });
      expect(raw.methods.filter((method) => method === 'tools/call')).toEqual(['tools/call']);
    } finally {
      await raw.close();
    }
  });
});
