/**
 * The three raw undici errors issue 43 saw escape, on real sockets, at discovery and at a call:
 * a Streamable HTTP body sent without `content-length` and cut (`HTTPParserError`, "Invalid EOF
 * state"), a body shorter than its `content-length` (`ResponseContentLengthMismatchError`), and a
 * legacy HTTP+SSE stream reset after its POST was accepted (`SocketError`, "other side closed"),
 * reached by a fallback discovery. Each now ends in one typed error with the operation and phase
 * that broke, the raw undici error its cause (decision 0035).
 */
import { createServer, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  type ToolResult,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionNetworkError,
  ConnectionProtocolError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { mcpHandler, mcpMessage } from '../fixtures/fault-mcp.js';
import { reply } from '../fixtures/fault-replies.js';
import type { FaultReply } from '../fixtures/fault-types.js';
import {
  listenOnLoopback,
  readBodyText,
  stopServer,
  trackSockets,
} from '../fixtures/http-helpers.js';
import { connect, mountEcho, rejectionOf, useFaultServers } from '../support/fault-suite.js';

const servers = useFaultServers();

/** The start of a JSON-RPC answer; the rest never comes. */
const PARTIAL = '{"jsonrpc":"2.0","id":';

/** A chunked body (no `content-length`), cut after its first chunk: undici's "Invalid EOF state". */
const CUT_WITHOUT_LENGTH: FaultReply = reply.raw(
  200,
  { 'content-type': 'application/json', connection: 'close' },
  [PARTIAL],
  { cut: true },
);

/** A body that ends 78 bytes short of its `content-length`. */
const SHORT_OF_ITS_LENGTH: FaultReply = reply.raw(
  200,
  { 'content-type': 'application/json', 'content-length': '100', connection: 'close' },
  [PARTIAL],
  { cut: true },
);

/** What a failed call carries: its projected code and the typed cause. */
function failureOf(result: ToolResult): { code: string; cause: unknown } {
  if (result.ok) throw new Error('expected the call to fail');
  return { code: result.code, cause: toolCauseFromResult(result) };
}

async function callEcho(tool: AnyRuntimeToolDefinition) {
  return failureOf(await runTool(tool, { message: 'hi' }, { source: 'agent' }));
}

describe('a Streamable HTTP body sent without content-length, then cut', () => {
  it('fails the mount with ConnectionProtocolError during tools/list, the parser error its cause', async () => {
    const server = await servers.start(mcpHandler({ 'tools/list': CUT_WITHOUT_LENGTH }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({
      operation: 'tools/list',
      phase: 'discovery',
      message:
        'Connection "faulty" sent an answer that broke HTTP/1.1 (HTTPParserError) during tools/list',
    });
    expect((error as Error).cause).toMatchObject({
      name: 'HTTPParserError',
      message: 'Response does not match the HTTP/1.1 protocol (Invalid EOF state)',
    });
  });

  it('fails the call with CONNECTION_PROTOCOL_ERROR during tools/call', async () => {
    let cut = false;
    const server = await servers.start(
      mcpHandler({ 'tools/call': () => (cut ? CUT_WITHOUT_LENGTH : reply.status(500)) }),
    );
    const echo = await mountEcho(server);
    cut = true;
    const { code, cause } = await callEcho(echo);
    expect(code).toBe('CONNECTION_PROTOCOL_ERROR');
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({ operation: 'tools/call', phase: 'call' });
    expect((cause as Error).cause).toMatchObject({ name: 'HTTPParserError' });
  });
});

describe('a Streamable HTTP body shorter than its content-length', () => {
  it('fails the mount with ConnectionProtocolError during tools/list, the mismatch its cause', async () => {
    const server = await servers.start(mcpHandler({ 'tools/list': SHORT_OF_ITS_LENGTH }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({
      operation: 'tools/list',
      phase: 'discovery',
      observedReadBytes: PARTIAL.length,
    });
    expect((error as Error).cause).toMatchObject({
      code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    });
  });

  it('fails the call with CONNECTION_PROTOCOL_ERROR during tools/call', async () => {
    let short = false;
    const server = await servers.start(
      mcpHandler({ 'tools/call': () => (short ? SHORT_OF_ITS_LENGTH : reply.status(500)) }),
    );
    const echo = await mountEcho(server);
    short = true;
    const { code, cause } = await callEcho(echo);
    expect(code).toBe('CONNECTION_PROTOCOL_ERROR');
    expect(cause).toMatchObject({ operation: 'tools/call', phase: 'call' });
    expect((cause as Error).cause).toMatchObject({ code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' });
  });
});

/**
 * A legacy HTTP+SSE server (its Streamable POST answers 404, so the client falls back) that
 * accepts every POST with 202 and answers on the stream, except that once a POST of `resetOn`
 * is accepted it resets every open stream instead of answering.
 */
async function resettingLegacyServer(resetOn: () => string | undefined) {
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/mcp') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('event: endpoint\ndata: /messages\n\n');
      streams.add(res);
      res.once('close', () => streams.delete(res));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/messages') {
      res.writeHead(404).end();
      return;
    }
    void readBodyText(req).then((text) => {
      const message = JSON.parse(text ?? '{}') as { id?: number; method: string };
      const reset = message.method === resetOn();
      res.writeHead(202).end('Accepted', () => {
        for (const stream of streams) {
          if (reset) stream.socket?.destroy();
          else if (message.id !== undefined) stream.write(answerFrame(message));
        }
      });
    });
  });
  const sockets = trackSockets(server);
  const origin = await listenOnLoopback(server);
  return { url: `${origin}/mcp`, stop: () => stopServer(server, sockets) };
}

function answerFrame(message: {
  id?: number;
  method: string;
  params?: { protocolVersion?: string };
}) {
  const id = message.id ?? null;
  const answer =
    message.method === 'initialize'
      ? mcpMessage.initializeResult(id, { protocolVersion: '2025-11-25' })
      : message.method === 'tools/list'
        ? mcpMessage.toolsList(id)
        : mcpMessage.callResult(id, { content: [{ type: 'text', text: 'hi' }] });
  return `event: message\ndata: ${JSON.stringify(answer)}\n\n`;
}

/** A 2025-11-25 connection to `url`, which falls back to legacy HTTP+SSE on the POST's 404. */
function legacyConnection(url: string) {
  return defineMcpClientConnection({
    name: 'faulty',
    transport: { url, protocolVersion: '2025-11-25' },
  });
}

describe('a legacy HTTP+SSE stream reset after its POST was accepted', () => {
  it('fails the fallback discovery with ConnectionNetworkError closed during tools/list', async () => {
    const legacy = await resettingLegacyServer(() => 'tools/list');
    try {
      const error = await rejectionOf(mountConnections([legacyConnection(legacy.url)]));
      expect(error).toBeInstanceOf(ConnectionNetworkError);
      expect(error).toMatchObject({
        failure: 'closed',
        operation: 'tools/list',
        phase: 'discovery',
        fallbackStatus: 404,
      });
      expect((error as Error).cause).toMatchObject({
        code: 'UND_ERR_SOCKET',
        message: 'other side closed',
      });
    } finally {
      await legacy.stop();
    }
  });

  it('fails the call with CONNECTION_NETWORK_ERROR closed during tools/call, retryable', async () => {
    let resetOn: string | undefined;
    const legacy = await resettingLegacyServer(() => resetOn);
    try {
      const [echo] = await mountConnections([legacyConnection(legacy.url)]);
      resetOn = 'tools/call';
      const result = await runTool(
        echo as AnyRuntimeToolDefinition,
        { message: 'hi' },
        {
          source: 'agent',
        },
      );
      expect(result).toMatchObject({
        ok: false,
        code: 'CONNECTION_NETWORK_ERROR',
        retryable: true,
      });
      const cause = toolCauseFromResult(result);
      expect(cause).toBeInstanceOf(ConnectionNetworkError);
      expect(cause).toMatchObject({ failure: 'closed', operation: 'tools/call', phase: 'call' });
      expect((cause as Error).cause).toMatchObject({ code: 'UND_ERR_SOCKET' });
    } finally {
      await legacy.stop();
    }
  });
});
