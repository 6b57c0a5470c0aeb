/**
 * How a legacy HTTP+SSE call counts what its stream reads (decision 0018). The endpoint event and
 * every message the machine is sent carry the bytes read since the stream's last report; a chunk
 * that completes no event is reported as `BYTES_READ`. A POST's whole `202 Accepted` is carried by
 * its done event (decision 0019). Either way every byte counts exactly once, against the step it
 * arrived in.
 */

import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import { ConnectionResponseTooLargeError, mountConnections } from '../../src/connections/index.js';
import {
  type FaultServer,
  legacyMcpHandler,
  mcpMessage,
  sseMessageFrame,
} from '../fixtures/fault-server.js';
import { connect, mountEcho, rejectionOf, useFaultServers } from '../support/fault-suite.js';

const { start } = useFaultServers();

/** What a legacy POST to the endpoint answers: `202 Accepted`, 8 bytes. */
const ACCEPTED_BYTES = 'Accepted'.length;
const echoResult = (text: string) => ({ content: [{ type: 'text', text: `Echo: ${text}` }] });

/** Every event that brings bytes to a run, as `type bytes` (`BYTES_READ` with its sender's id). */
function byteEvents() {
  const seen: string[] = [];
  const inspect = (inspection: InspectionEvent): void => {
    if (inspection.type !== '@xstate.event') return;
    const event = inspection.event as { type: string; bytes?: number };
    if (event.bytes === undefined) return;
    // The stream actor sends back as itself; an exchange reports through the machine's own ref.
    const sender = (inspection.sourceRef as { id?: string } | undefined)?.id ?? 'an exchange';
    const from = event.type === 'BYTES_READ' ? ` from ${sender}` : '';
    seen.push(`${event.type} ${event.bytes}${from}`);
  };
  return { seen, inspect };
}

/**
 * The echo tool of a connection told `type: 'sse'`, and the byte events of its runs from its
 * first call on (the discovery before it is left out).
 */
async function inspectedEcho(server: FaultServer) {
  const events = byteEvents();
  const echo = await mountEcho(server, {
    transport: { url: server.url, type: 'sse' },
    inspect: events.inspect,
  });
  events.seen.length = 0;
  return { echo, seen: events.seen };
}

describe('a legacy call whose stream events each arrive whole', () => {
  it('sends no BYTES_READ from its stream: each event carries its own bytes', async () => {
    const frame = sseMessageFrame(mcpMessage.callResult(2, echoResult('hi')));
    const server = await start(
      legacyMcpHandler({ rpc: { 'tools/call': () => ({ frames: [frame] }) } }),
    );
    const { echo, seen } = await inspectedEcho(server);
    expect(await runTool(echo, { message: 'hi' }, { source: 'agent' })).toEqual({
      ok: true,
      data: echoResult('hi'),
    });
    const endpointFrame = 'event: endpoint\ndata: /messages\n\n';
    // Each POST's `202 Accepted` arrives whole: its done event carries its bytes (decision 0019).
    expect(seen).toEqual([
      `SSE_ENDPOINT ${Buffer.byteLength(endpointFrame)}`,
      // The initialize result, whose frame the fault server builds.
      expect.stringMatching(/^SSE_MESSAGE [1-9]\d+$/),
      `SSE_MESSAGE ${Buffer.byteLength(frame)}`,
    ]);
  });

  it('counts the carried bytes against the call budget to the byte', async () => {
    const frame = sseMessageFrame(mcpMessage.callResult(2, echoResult('fits')));
    const server = await start(
      legacyMcpHandler({ rpc: { 'tools/call': () => ({ frames: [frame] }) } }),
    );
    // The call step reads the 202 of its POST, then the response frame on the stream.
    const exact = ACCEPTED_BYTES + Buffer.byteLength(frame);
    const fits = await mountEcho(server, { limits: { call: { maxResponseBytes: exact } } });
    expect(await runTool(fits, { message: 'fits' }, { source: 'agent' })).toEqual({
      ok: true,
      data: echoResult('fits'),
    });

    const short = await mountEcho(server, { limits: { call: { maxResponseBytes: exact - 1 } } });
    const cause = toolCauseFromResult(
      await runTool(short, { message: 'fits' }, { source: 'agent' }),
    );
    expect(cause).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(cause).toMatchObject({
      maxBytes: exact - 1,
      observedReadBytes: exact,
      operation: 'tools/call',
      phase: 'call',
    });
    await expect.poll(() => server.openStreams()).toBe(0);
  });
});

describe('a legacy response frame that arrives in pieces', () => {
  it('reports the first piece as it comes; the message carries the rest', async () => {
    const frame = sseMessageFrame(mcpMessage.callResult(2, echoResult('split')));
    const cut = 20;
    const pieces = [frame.slice(0, cut), frame.slice(cut)];
    const server = await start(
      legacyMcpHandler({
        rpc: { 'tools/call': () => ({ frames: pieces, frameDelayMs: 50 }) },
      }),
    );
    const { echo, seen } = await inspectedEcho(server);
    expect(await runTool(echo, { message: 'split' }, { source: 'agent' })).toMatchObject({
      ok: true,
    });
    // The first piece completes no event: the stream reports it alone, 50 ms before the rest.
    expect(seen.slice(-2)).toEqual([
      `BYTES_READ ${cut} from legacyStream`,
      `SSE_MESSAGE ${Buffer.byteLength(frame) - cut}`,
    ]);
  });
});

describe('a legacy listing of two pages', () => {
  /** Page 1 of `tools/list` carries tool `t1` and a cursor; page 2 carries `t2` and ends. */
  const pageFrame = (id: unknown, page: 1 | 2) => {
    const tools = [{ name: `t${page}`, inputSchema: { type: 'object', properties: {} } }];
    const result = page === 1 ? { tools, nextCursor: 'page-2' } : { tools };
    return sseMessageFrame({ jsonrpc: '2.0', id, result });
  };
  const serve = () =>
    legacyMcpHandler({
      rpc: {
        'tools/list': (request) => {
          const cursor = (request.rpc?.params as { cursor?: string } | undefined)?.cursor;
          return { frames: [pageFrame(request.rpc?.id, cursor === undefined ? 1 : 2)] };
        },
      },
    });
  // `initialize` is request 1, so the two pages answer requests 2 and 3.
  const pagesBytes = Buffer.byteLength(pageFrame(2, 1)) + Buffer.byteLength(pageFrame(3, 2));

  it('charges both pages, and both POSTs, to the one discovery budget', async () => {
    // Each page's message carries its bytes; the first page's stay counted into the second.
    const exact = 2 * ACCEPTED_BYTES + pagesBytes;
    const fits = await start(serve());
    const tools = await mountConnections([
      connect(fits, { limits: { discovery: { maxResponseBytes: exact } } }),
    ]);
    expect(tools.map((entry) => entry.name)).toEqual(['t1', 't2']);

    const short = await start(serve());
    const error = await rejectionOf(
      mountConnections([
        connect(short, { limits: { discovery: { maxResponseBytes: exact - 1 } } }),
      ]),
    );
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({
      maxBytes: exact - 1,
      observedReadBytes: exact,
      operation: 'tools/list',
      phase: 'discovery',
    });
  });
});
