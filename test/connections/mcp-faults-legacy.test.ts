/**
 * Fault scenarios: the legacy HTTP+SSE fallback. The endpoint wait is bounded by the handshake
 * deadline, the endpoint is fenced before any request (and so any bearer) reaches it, and the
 * legacy stream frames CRLF, skips frames for other ids and charges everything to the budget.
 */
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import type { TransitionRecord } from '../../src/machines/observe.js';
import {
  answerRpc,
  type FaultServer,
  legacyMcpHandler,
  mcpHandler,
  mcpMessage,
  reply,
  sseComment,
  sseMessageFrame,
} from '../fixtures/fault-server.js';
import { connect, mountEcho, rejectionOf, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

/** A whole legacy operation as the server sees it. */
const LEGACY = (request: string) => [
  'POST /mcp initialize',
  'GET /mcp',
  'POST /messages initialize',
  'POST /messages notifications/initialized',
  `POST /messages ${request}`,
];
const echoResult = (text: string) => ({ content: [{ type: 'text', text: `Echo: ${text}` }] });

describe('a legacy GET that is not an event stream', () => {
  it('ends in ConnectionProtocolError at endpoint at once, without waiting for the deadline', async () => {
    const server = await start(
      legacyMcpHandler({
        http: {
          GET: reply.raw(200, { 'content-type': 'text/html' }, ['<html>'], { endAfter: false }),
        },
      }),
    );
    const startedAt = performance.now();
    const error = await rejectionOf(mountConnections([connect(server, { timeoutMs: 10_000 })]));
    expect(performance.now() - startedAt).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({ operation: 'endpoint', phase: 'discovery' });
    expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });
});

describe('the legacy endpoint wait', () => {
  it('ends in ConnectionTimeoutError at endpoint when only comments arrive, and closes the stream', async () => {
    const preFrames = [sseComment('ready'), sseComment('still ready')];
    const server = await start(legacyMcpHandler({ neverSendEndpoint: true, preFrames }));
    const startedAt = performance.now();
    const error = await rejectionOf(mountConnections([connect(server, { timeoutMs: 500 })]));
    expect(performance.now() - startedAt).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({
      timeoutMs: 500,
      operation: 'endpoint',
      phase: 'discovery',
      observedReadBytes: Buffer.byteLength(preFrames.join('')),
    });
    expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
    await expect.poll(() => server.openStreams()).toBe(0);
    expect(server.closedRequests()).toBe(1);
  });
});

describe('a refused legacy stream', () => {
  it('ends in ConnectionAuthorizationRequiredError at endpoint on a 401 GET', async () => {
    const server = await start(legacyMcpHandler({ http: { GET: reply.status(401) } }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({ operation: 'endpoint', phase: 'discovery' });
    expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
  });

  it('ends in ConnectionRequestError at endpoint on a 500 GET', async () => {
    const server = await start(legacyMcpHandler({ http: { GET: reply.status(500, 'no sse') } }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({
      status: 500,
      body: 'no sse',
      operation: 'endpoint',
      phase: 'discovery',
    });
    expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
  });
});

describe('a connection told its transport', () => {
  it('speaks legacy SSE at once with type sse: no Streamable probe, the same call', async () => {
    const server = await start(legacyMcpHandler());
    const echo = await mountEcho(server, { transport: { url: server.url, type: 'sse' } });
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('hi') });
    expect(wire(server, before)).toEqual(LEGACY('tools/call').slice(1));
  });

  it('never falls back with type streamable-http: a 404 on initialize is a request error', async () => {
    const server = await start(legacyMcpHandler());
    const error = await rejectionOf(
      mountConnections([
        connect(server, { transport: { url: server.url, type: 'streamable-http' } }),
      ]),
    );
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ operation: 'initialize', phase: 'discovery' });
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });
});

describe('the legacy endpoint fence', () => {
  it('refuses an endpoint on another port; that server receives nothing', async () => {
    const other = await start(mcpHandler());
    const server = await start(legacyMcpHandler({ endpoint: `${other.origin}/messages` }));
    const error = await rejectionOf(mountConnections([connect(server, { token: () => 'secret' })]));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({
      url: `${other.origin}/messages`,
      connectionName: 'faulty',
      operation: 'endpoint',
      phase: 'discovery',
    });
    expect(other.requests).toEqual([]);
    expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it.each([
    [
      'an empty endpoint',
      '   ',
      'Connection "faulty" received an empty SSE endpoint (after its Streamable HTTP POST was answered 404, legacy HTTP+SSE was tried)',
    ],
    [
      'a non-http endpoint',
      'javascript:alert(1)',
      'Connection "faulty" received an SSE endpoint that is not http(s) (after its Streamable HTTP POST was answered 404, legacy HTTP+SSE was tried)',
    ],
  ])(
    "refuses %s with the wire's own reason, before any POST",
    async (_label, endpoint, message) => {
      const server = await start(legacyMcpHandler({ endpoint }));
      const error = await rejectionOf(
        mountConnections([connect(server, { token: () => 'secret' })]),
      );
      expect(error).toBeInstanceOf(ConnectionUrlError);
      expect((error as Error).message).toBe(message);
      expect(error).toMatchObject({
        operation: 'endpoint',
        phase: 'discovery',
        fallbackStatus: 404,
      });
      expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
      await expect.poll(() => server.openStreams()).toBe(0);
    },
  );

  it('refuses an endpoint on another host name for the same server', async () => {
    const server = await start(mcpHandler());
    const endpoint = `http://localhost:${server.port}/messages`;
    server.setHandler(legacyMcpHandler({ endpoint }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({ url: endpoint, operation: 'endpoint', phase: 'discovery' });
    expect(wire(server)).toEqual(['POST /mcp initialize', 'GET /mcp']);
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it('accepts an endpoint on another host name that allowHosts names', async () => {
    const server = await start(mcpHandler());
    const endpoint = `http://localhost:${server.port}/messages`;
    server.setHandler(legacyMcpHandler({ endpoint }));
    const echo = await mountEcho(server, { allowHosts: [`localhost:${server.port}`] });
    const result = await runTool(echo, { message: 'fenced in' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('fenced in') });
    expect(wire(server)).toEqual([...LEGACY('tools/list'), ...LEGACY('tools/call')]);
    expect(
      server.requests.filter((request) => request.path === '/messages').map((r) => r.headers.host),
    ).toEqual(Array(6).fill(`localhost:${server.port}`));
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it('accepts an endpoint on another port that allowHosts names', async () => {
    let server: FaultServer | undefined;
    // The endpoint server relays each answer onto the first server's legacy stream.
    const other = await start((request) => {
      const answer = answerRpc(request);
      if (answer !== undefined) server?.later(0, () => server?.push(sseMessageFrame(answer)));
      return reply.status(202, 'Accepted');
    });
    server = await start(legacyMcpHandler({ endpoint: `${other.origin}/messages` }));
    const echo = await mountEcho(server, { allowHosts: [new URL(other.origin).host] });
    const result = await runTool(echo, { message: 'over there' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('over there') });
    expect(wire(server)).toEqual(Array(2).fill(['POST /mcp initialize', 'GET /mcp']).flat());
    expect(wire(other)).toEqual(
      ['tools/list', 'tools/call'].flatMap((request) => LEGACY(request).slice(2)),
    );
  });
});

describe('the legacy stream', () => {
  it('framed with CRLF discovers and calls successfully', async () => {
    const server = await start(
      legacyMcpHandler({ newline: '\r\n', preFrames: [sseComment('hello', '\r\n')] }),
    );
    const echo = await mountEcho(server);
    const result = await runTool(echo, { message: 'crlf' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('crlf') });
    expect(wire(server)).toEqual([...LEGACY('tools/list'), ...LEGACY('tools/call')]);
  });

  it('skips frames for other ids; the right response wins', async () => {
    const wrongFirst = (_request: unknown, _server: unknown, correct: unknown) => ({
      frames: [
        sseComment('keepalive'),
        sseMessageFrame({ ...(correct as object), id: 999 }),
        sseMessageFrame(correct),
      ],
    });
    const server = await start(
      legacyMcpHandler({
        rpc: { initialize: wrongFirst, 'tools/list': wrongFirst, 'tools/call': wrongFirst },
      }),
    );
    const echo = await mountEcho(server);
    const result = await runTool(echo, { message: 'right' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: echoResult('right') });
  });

  it('charges wrong-id frames and comments to the call read budget', async () => {
    const right = sseMessageFrame(mcpMessage.callResult(2, echoResult('fits')));
    const junk = [
      sseComment('padding padding padding'),
      sseMessageFrame(mcpMessage.callResult(7, echoResult('not yours'))),
    ];
    const budget = Buffer.byteLength(right) + 10;
    let withJunk = false;
    const server = await start(
      legacyMcpHandler({
        rpc: { 'tools/call': () => ({ frames: withJunk ? [...junk, right] : [right] }) },
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
    await expect.poll(() => server.openStreams()).toBe(0);
  });
});

describe('the transition records of a fallback run', () => {
  it('records the Streamable initialize, then each legacy step, in order', async () => {
    const server = await start(legacyMcpHandler());
    const records: TransitionRecord[] = [];
    await mountConnections([connect(server)], { observe: (record) => records.push(record) });
    // Transient states (starting, sse.endpointCheck, sse.initializeCheck, closing) leave no
    // record.
    expect(
      records.map(({ from, to, event, operation }) => ({ from, to, event, operation })),
    ).toEqual([
      // No token provider: nothing to resolve, so the run starts with its first POST.
      { from: '', to: 'session.initializing', event: 'xstate.init', operation: 'initialize' },
      {
        from: 'session.initializing',
        to: 'sse.connecting',
        event: 'xstate.done.actor.postInitialize',
        operation: 'endpoint',
      },
      {
        from: 'sse.connecting',
        to: 'sse.initializing',
        event: 'SSE_ENDPOINT',
        operation: 'initialize',
      },
      {
        from: 'sse.initializing',
        to: 'sse.notifying',
        event: 'SSE_MESSAGE',
        operation: 'notifications/initialized',
      },
      {
        from: 'sse.notifying',
        to: 'sse.requesting.waiting',
        event: 'xstate.done.actor.postLegacyInitialized',
        operation: 'tools/list',
      },
      {
        from: 'sse.requesting.waiting',
        to: 'closed',
        event: 'SSE_MESSAGE',
        operation: 'tools/list',
      },
    ]);
    expect(
      new Set(records.map((record) => [record.machine, record.connection, record.phase].join())),
    ).toEqual(new Set(['mcpOperation,faulty,discovery']));
  });
});

describe('ending the legacy stream', () => {
  it("closes the stream after each operation and leaves the process's stack trace limit as it was", async () => {
    const server = await start(legacyMcpHandler());
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 17;
    try {
      const echo = await mountEcho(server);
      expect(await runTool(echo, { message: 'hi' }, { source: 'agent' })).toEqual({
        ok: true,
        data: echoResult('hi'),
      });
      expect(Error.stackTraceLimit).toBe(17);
    } finally {
      Error.stackTraceLimit = limit;
    }
    // The discovery's stream and the call's, both ended by the client.
    await expect.poll(() => server.openStreams()).toBe(0);
    expect(server.closedRequests()).toBe(2);
  });
});

describe('a wrong path', () => {
  it('reads as a wrong path: the error names what the Streamable POST got, then what the SSE GET got', async () => {
    const server = await start(() => reply.status(404, 'Not Found'));
    const error = await rejectionOf(
      mountConnections([
        defineMcpClientConnection({ name: 'wrong', transport: { url: `${server.url}/mpc` } }),
      ]),
    );
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 404, operation: 'endpoint', fallbackStatus: 404 });
    expect((error as Error).message).toBe(
      'Connection "wrong" request failed with status 404 (after its Streamable HTTP POST was answered 404, legacy HTTP+SSE was tried)',
    );
    // The stateless probe, the 2025 initialize, then the legacy GET: each answered 404.
    expect(wire(server)).toEqual([
      'POST /mcp/mpc tools/list',
      'POST /mcp/mpc initialize',
      'GET /mcp/mpc',
    ]);
  });
});
