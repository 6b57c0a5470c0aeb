/**
 * Fault scenarios: Streamable HTTP answers sent as SSE streams. Oversized streams, CRLF framing,
 * frames for other ids, comments charged to the read budget, and streams that end early: without
 * event ids (a protocol error) or with them (resumed with GET + Last-Event-ID, a bounded number
 * of times).
 */
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
} from '../../src/connections/index.js';
import {
  answerRpc,
  mcpHandler,
  mcpMessage,
  reply,
  type SeenRequest,
  sseComment,
  sseFrame,
  sseMessageFrame,
} from '../fixtures/fault-server.js';
import { HANDSHAKE, mountEcho, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

/** The id the client gives its one request after initialize (a fresh client per operation). */
const REQUEST_ID = 2;
const echoResult = (text: string) => ({ content: [{ type: 'text', text: `Echo: ${text}` }] });
/** The frame a correct server sends for `echo({ message: text })`. */
const echoFrame = (text: string) =>
  sseMessageFrame(mcpMessage.callResult(REQUEST_ID, echoResult(text)));

describe('a Streamable SSE answer', () => {
  it('over maxResponseBytes ends the call in ConnectionResponseTooLargeError', async () => {
    const big = 'y'.repeat(4_000);
    const server = await start(mcpHandler({ 'tools/call': () => reply.sse([echoFrame(big)]) }));
    const echo = await mountEcho(server, { limits: { call: { maxResponseBytes: 512 } } });
    const before = server.requests.length;
    const result = await runTool(echo, { message: big }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_RESPONSE_TOO_LARGE' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(cause).toMatchObject({ maxBytes: 512, operation: 'tools/call', phase: 'call' });
    // The count at which the ceiling tripped: past it, and never more than was sent.
    const observed = (cause as ConnectionResponseTooLargeError).observedReadBytes;
    expect(observed).toBeGreaterThan(512);
    expect(observed).toBeLessThanOrEqual(Buffer.byteLength(echoFrame(big)));
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it('framed with CRLF discovers and calls successfully', async () => {
    const crlf = (request: SeenRequest) =>
      reply.sse([
        sseComment('warming up', '\r\n'),
        sseMessageFrame(answerRpc(request), { newline: '\r\n', id: 'e1' }),
      ]);
    const server = await start(
      mcpHandler({ initialize: crlf, 'tools/list': crlf, 'tools/call': crlf }),
    );
    const echo = await mountEcho(server);
    const result = await runTool(echo, { message: 'crlf' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('crlf') });
    expect(wire(server)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/list',
      ...HANDSHAKE,
      'POST /mcp tools/call',
    ]);
  });

  it('skips frames for other ids, notifications and comments; the right response wins', async () => {
    const server = await start(
      mcpHandler({
        'tools/call': (request) =>
          reply.sse([
            sseComment('keepalive'),
            sseMessageFrame(mcpMessage.callResult(999, echoResult('wrong id'))),
            sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }),
            sseMessageFrame(answerRpc(request)),
            sseMessageFrame(mcpMessage.callResult(REQUEST_ID, echoResult('too late'))),
          ]),
      }),
    );
    const echo = await mountEcho(server);
    const result = await runTool(echo, { message: 'right' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('right') });
  });

  it('charges wrong-id frames and comments to the read budget', async () => {
    const right = echoFrame('fits');
    const junk = [
      sseComment('padding padding padding'),
      sseMessageFrame(mcpMessage.callResult(7, echoResult('not yours'))),
    ];
    const budget = Buffer.byteLength(right) + 10;
    expect(junk.reduce((sum, frame) => sum + Buffer.byteLength(frame), 0)).toBeGreaterThan(10);
    let withJunk = false;
    const server = await start(
      mcpHandler({
        'tools/call': () => reply.sse(withJunk ? [...junk, right] : [right]),
      }),
    );
    const echo = await mountEcho(server, { limits: { call: { maxResponseBytes: budget } } });

    const alone = await runTool(echo, { message: 'fits' }, { source: 'agent' });
    expect(alone).toEqual({ ok: true, data: echoResult('fits') });

    withJunk = true;
    const crowded = await runTool(echo, { message: 'fits' }, { source: 'agent' });
    const cause = toolCauseFromResult(crowded);
    expect(cause).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(cause).toMatchObject({ maxBytes: budget, operation: 'tools/call', phase: 'call' });
    expect((cause as ConnectionResponseTooLargeError).observedReadBytes).toBeGreaterThan(budget);
  });
});

describe('a Streamable SSE answer that ends early', () => {
  it('without event ids ends the call in ConnectionProtocolError and never resumes', async () => {
    const server = await start(
      mcpHandler({
        'tools/call': reply.sse([
          sseComment('thinking'),
          sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }),
        ]),
      }),
    );
    const echo = await mountEcho(server);
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({ operation: 'tools/call', phase: 'call', rpcCode: undefined });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
  });

  it('with event ids is resumed by GET with Last-Event-ID after the retry delay', async () => {
    const retryMs = 250;
    const seenAt: Record<string, number> = {};
    const server = await start(
      mcpHandler({
        'tools/call': () => {
          seenAt.call = performance.now();
          return reply.sse([sseFrame({ id: 'evt-1', retry: retryMs, data: '' })]);
        },
        GET: (request) => {
          seenAt.get = performance.now();
          return request.headers['last-event-id'] === 'evt-1'
            ? reply.sse([
                sseMessageFrame(mcpMessage.callResult(REQUEST_ID, echoResult('resumed')), {
                  id: 'evt-2',
                }),
              ])
            : reply.status(400, 'unknown event id');
        },
      }),
    );
    const echo = await mountEcho(server);
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'resumed' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('resumed') });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call', 'GET /mcp']);
    const resume = server.requests.at(-1);
    expect(resume?.headers['last-event-id']).toBe('evt-1');
    expect(resume?.headers.accept).toBe('text/event-stream');
    expect((seenAt.get ?? 0) - (seenAt.call ?? 0)).toBeGreaterThanOrEqual(retryMs - 5);
  });

  it('gives up after three resumptions with ConnectionProtocolError', async () => {
    let events = 0;
    const interrupted = () => {
      events += 1;
      return reply.sse([sseFrame({ id: `evt-${events}`, retry: 20, data: '' })]);
    };
    const server = await start(mcpHandler({ 'tools/call': interrupted, GET: interrupted }));
    const echo = await mountEcho(server);
    const before = server.requests.length;
    const startedAt = performance.now();
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(performance.now() - startedAt).toBeLessThan(3_000);
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({ operation: 'tools/call', phase: 'call' });
    expect(wire(server, before)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/call',
      'GET /mcp',
      'GET /mcp',
      'GET /mcp',
    ]);
    expect(
      server.requests.slice(before + 3).map((request) => request.headers['last-event-id']),
    ).toEqual(['evt-1', 'evt-2', 'evt-3']);
  });
});
