/**
 * Fault scenarios: HTTP statuses at each step of an MCP operation. Each one ends in its typed
 * error with the failing step's operation and phase, never opens the legacy fallback except where
 * the first initialize allows it, and never replays a request.
 */
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  mountConnections,
} from '../../src/connections/index.js';
import { answerRpc, mcpHandler, reply } from '../fixtures/fault-server.js';
import {
  connect,
  HANDSHAKE,
  mountEcho,
  rejectionOf,
  useFaultServers,
  wire,
} from '../support/fault-suite.js';

const { start } = useFaultServers();

describe('a failing initialize during discovery', () => {
  it('ends in ConnectionRequestError 500 and never opens the SSE fallback', async () => {
    const server = await start(mcpHandler({ initialize: reply.status(500, 'database down') }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({
      status: 500,
      body: 'database down',
      operation: 'initialize',
      phase: 'discovery',
    });
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });

  it('ends in ConnectionAuthorizationRequiredError on 401 and never opens the SSE fallback', async () => {
    const server = await start(mcpHandler({ initialize: reply.status(401, 'who are you') }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({ operation: 'initialize', phase: 'discovery' });
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });

  it('ends in ConnectionRequestError 403 without fallback, projected as FORBIDDEN for a call', async () => {
    const server = await start(mcpHandler({ initialize: reply.status(403, 'not for you') }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 403, operation: 'initialize', phase: 'discovery' });
    expect(wire(server)).toEqual(['POST /mcp initialize']);

    server.setHandler(mcpHandler());
    const echo = await mountEcho(server);
    server.setHandler(mcpHandler({ initialize: reply.status(403, 'not for you') }));
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'FORBIDDEN',
      details: {
        message: 'The connection refused the request: permission denied.',
        reason: 'permission-denied',
        operation: 'initialize',
        phase: 'discovery',
        upstreamStatus: 403,
      },
      retryable: false,
    });
    expect(toolCauseFromResult(result)).toBeInstanceOf(ConnectionRequestError);
    expect(wire(server, before)).toEqual(['POST /mcp initialize']);
  });

  it('refuses an oversized 400 body as too large instead of falling back', async () => {
    const body = 'x'.repeat(4_000);
    const server = await start(mcpHandler({ initialize: reply.status(400, body) }));
    const error = await rejectionOf(mountConnections([connect(server, { maxResponseBytes: 256 })]));
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({ maxBytes: 256, operation: 'initialize', phase: 'discovery' });
    const observed = (error as ConnectionResponseTooLargeError).observedReadBytes;
    expect(observed).toBeGreaterThan(256);
    expect(observed).toBeLessThanOrEqual(body.length);
    expect(wire(server)).toEqual(['POST /mcp initialize']);
  });
});

describe('a 401 after initialize', () => {
  it('ends discovery in ConnectionAuthorizationRequiredError at tools/list, with no GET', async () => {
    const server = await start(mcpHandler({ 'tools/list': reply.status(401) }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({ operation: 'tools/list', phase: 'discovery' });
    expect(wire(server)).toEqual([...HANDSHAKE, 'POST /mcp tools/list']);
  });

  it('ends a call in ConnectionAuthorizationRequiredError; the next call resolves a new token and succeeds', async () => {
    let issued = 0;
    const token = () => {
      issued += 1;
      return `token-${issued}`;
    };
    const server = await start(
      mcpHandler({
        'tools/call': (request) =>
          request.headers.authorization === 'Bearer token-2'
            ? reply.status(401, 'expired')
            : reply.json(200, answerRpc(request)),
      }),
    );
    const echo = await mountEcho(server, { token });
    expect(issued).toBe(1);

    const first = await runTool(echo, { message: 'one' }, { source: 'agent' });
    expect(first).toMatchObject({ ok: false, code: 'UNAUTHORIZED', retryable: false });
    const cause = toolCauseFromResult(first);
    expect(cause).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(cause).toMatchObject({ operation: 'tools/call', phase: 'call' });
    expect(issued).toBe(2);

    const second = await runTool(echo, { message: 'two' }, { source: 'agent' });
    expect(second).toEqual({
      ok: true,
      data: { content: [{ type: 'text', text: 'Echo: two' }] },
    });
    expect(issued).toBe(3);
    expect(wire(server)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/list',
      ...HANDSHAKE,
      'POST /mcp tools/call',
      ...HANDSHAKE,
      'POST /mcp tools/call',
    ]);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      ...Array(3).fill('Bearer token-1'),
      ...Array(3).fill('Bearer token-2'),
      ...Array(3).fill('Bearer token-3'),
    ]);
  });
});

describe.each([400, 404, 405])('a %i after initialize', (status) => {
  it('ends discovery in ConnectionRequestError at tools/list with no fallback and one request', async () => {
    const server = await start(mcpHandler({ 'tools/list': reply.status(status, 'nope') }));
    const error = await rejectionOf(mountConnections([connect(server)]));
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({
      status,
      body: 'nope',
      operation: 'tools/list',
      phase: 'discovery',
    });
    expect(wire(server)).toEqual([...HANDSHAKE, 'POST /mcp tools/list']);
  });

  it('ends a call in ConnectionRequestError at tools/call with no fallback and no replay', async () => {
    const server = await start(mcpHandler({ 'tools/call': reply.status(status, 'nope') }));
    const echo = await mountEcho(server);
    const before = server.requests.length;
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_REQUEST_FAILED' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionRequestError);
    expect(cause).toMatchObject({ status, operation: 'tools/call', phase: 'call' });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
  });
});

describe.each([500, 404])('a notifications/initialized answered %i', (status) => {
  it('is ignored: discovery and the call both succeed', async () => {
    const server = await start(
      mcpHandler({ 'notifications/initialized': reply.status(status, 'ignored') }),
    );
    const echo = await mountEcho(server);
    const result = await runTool(echo, { message: 'still fine' }, { source: 'agent' });
    expect(result).toEqual({
      ok: true,
      data: { content: [{ type: 'text', text: 'Echo: still fine' }] },
    });
    expect(wire(server)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/list',
      ...HANDSHAKE,
      'POST /mcp tools/call',
    ]);
  });
});

describe('a notifications/initialized with an oversized error body', () => {
  it('is not ignored: discovery ends in ConnectionResponseTooLargeError at that step', async () => {
    const server = await start(
      mcpHandler({ 'notifications/initialized': reply.status(500, 'z'.repeat(4_000)) }),
    );
    const error = await rejectionOf(
      mountConnections([connect(server, { maxResponseBytes: 1_000 })]),
    );
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({
      maxBytes: 1_000,
      operation: 'notifications/initialized',
      phase: 'discovery',
    });
    expect((error as ConnectionResponseTooLargeError).observedReadBytes).toBeGreaterThan(1_000);
    expect(wire(server)).toEqual(HANDSHAKE);
  });
});
