/**
 * How a Streamable HTTP call counts what it reads. A body that has ended by the time its bytes
 * would be reported reaches the chart with its answer and sends no `BYTES_READ`; a body that comes
 * over several turns of the event loop is reported as it comes. Either way every byte is counted
 * exactly once: in the errors that quote the count, and in the budget a listing charges.
 */

import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  mountConnections,
} from '../../src/connections/index.js';
import {
  mcpHandler,
  mcpMessage,
  reply,
  sseFrame,
  sseMessageFrame,
} from '../fixtures/fault-server.js';
import {
  connect,
  HANDSHAKE,
  mountEcho,
  rejectionOf,
  useFaultServers,
  wire,
} from '../support/fault-suite.js';

const { start } = useFaultServers();

/** The `bytes` of every `BYTES_READ` a connection's machines received, in order. */
function bytesReadEvents() {
  const bytes: number[] = [];
  const inspect = (inspection: InspectionEvent): void => {
    if (inspection.type !== '@xstate.event') return;
    const event = inspection.event as { type: string; bytes?: number };
    if (event.type === 'BYTES_READ') bytes.push(event.bytes ?? Number.NaN);
  };
  return { bytes, inspect };
}

describe('a body that arrives whole', () => {
  it('sends no BYTES_READ, through discovery and a call', async () => {
    const server = await start(mcpHandler());
    const events = bytesReadEvents();
    const tools = await mountConnections([connect(server, { inspect: events.inspect })]);
    const before = server.requests.length;
    const result = await runTool(tools[0] as never, { message: 'hi' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: true });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
    expect(events.bytes).toEqual([]);
  });

  it('is still counted where an error quotes the bytes read', async () => {
    const server = await start(mcpHandler({ initialize: reply.status(500, 'database down') }));
    const events = bytesReadEvents();
    const error = await rejectionOf(
      mountConnections([connect(server, { inspect: events.inspect })]),
    );
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 500, body: 'database down', observedReadBytes: 13 });
    expect(events.bytes).toEqual([]);
  });
});

describe('a body that arrives in pieces', () => {
  it('reports the first piece as it comes and counts the whole body once', async () => {
    const pieces = reply.raw(500, { 'content-type': 'text/plain' }, ['database ', 'down'], {
      chunkDelayMs: 50,
    });
    const server = await start(mcpHandler({ initialize: pieces }));
    const events = bytesReadEvents();
    const error = await rejectionOf(
      mountConnections([connect(server, { inspect: events.inspect })]),
    );
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 500, body: 'database down', observedReadBytes: 13 });
    // The first piece waited 50 ms for the next, so it was reported alone. The last one was
    // reported too or counted from the answer, depending on whether the body's end came with it.
    expect(events.bytes[0]).toBe('database '.length);
    expect([['database '.length], ['database '.length, 'down'.length]]).toContainEqual(
      events.bytes,
    );
  });
});

/** An SSE body sent whole, with its length: it ends with its one chunk. */
const wholeSse = (text: string) => reply.status(200, text, { 'content-type': 'text/event-stream' });

describe('an SSE answer to tools/call, sent whole', () => {
  it('that ends without the response quotes every byte it read in the protocol error', async () => {
    const frames = [
      sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/message', params: {} }),
    ];
    const server = await start(mcpHandler({ 'tools/call': wholeSse(frames.join('')) }));
    const echo = await mountEcho(server);
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({
      operation: 'tools/call',
      observedReadBytes: Buffer.byteLength(frames.join('')),
    });
  });

  it('that breaks off charges what it read to the resuming GET', async () => {
    // The broken-off answer and the resumed one fit the call's budget alone, not together.
    const first = `${sseFrame({ id: 'evt-1', retry: 1, data: '' })}${': '.padEnd(300, 'x')}\n\n`;
    const resumed = sseMessageFrame(mcpMessage.callResult(2, { content: [] }), { id: 'evt-2' });
    const budget = Buffer.byteLength(first) + Buffer.byteLength(resumed) - 1;
    const server = await start(
      mcpHandler({
        'tools/call': () => wholeSse(first),
        GET: () => wholeSse(resumed),
      }),
    );
    const echo = await mountEcho(server, { limits: { call: { maxResponseBytes: budget } } });
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(cause).toMatchObject({ maxBytes: budget, operation: 'tools/call' });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call', 'GET /mcp']);
  });
});
