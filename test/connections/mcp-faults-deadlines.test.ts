/**
 * Fault scenarios: deadlines. A server that never answers, or answers one byte at a time, ends in
 * ConnectionTimeoutError within the configured deadline of the phase that was running, and the
 * client closes the request it abandoned.
 */
import { describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import { ConnectionTimeoutError, mountConnections } from '../../src/connections/index.js';
import { mcpHandler, reply } from '../fixtures/fault-server.js';
import { connect, HANDSHAKE, rejectionOf, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

/** Generous bound for "within the deadline": the deadline plus scheduling noise on a busy host. */
const WITHIN_MS = 3_000;

describe('a hung server', () => {
  it('ends discovery in ConnectionTimeoutError at initialize and closes the request', async () => {
    const server = await start(mcpHandler({ initialize: reply.hang() }));
    const startedAt = performance.now();
    const error = await rejectionOf(mountConnections([connect(server, { timeoutMs: 500 })]));
    const elapsed = performance.now() - startedAt;
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({
      timeoutMs: 500,
      operation: 'initialize',
      phase: 'discovery',
      observedReadBytes: 0,
    });
    expect(elapsed).toBeGreaterThanOrEqual(495);
    expect(elapsed).toBeLessThan(WITHIN_MS);
    expect(wire(server)).toEqual(['POST /mcp initialize']);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });

  it('ends a call in ConnectionTimeoutError when headers come but the body never does', async () => {
    const server = await start(mcpHandler({ 'tools/call': reply.hang({ afterHeaders: true }) }));
    const tools = await mountConnections([
      connect(server, { limits: { call: { timeoutMs: 400 } } }),
    ]);
    const before = server.requests.length;
    const startedAt = performance.now();
    const result = await runTool(
      tools[0] as AnyRuntimeToolDefinition,
      { message: 'hi' },
      {
        source: 'agent',
      },
    );
    expect(performance.now() - startedAt).toBeLessThan(WITHIN_MS);
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionTimeoutError);
    expect(cause).toMatchObject({
      timeoutMs: 400,
      operation: 'tools/call',
      phase: 'call',
      observedReadBytes: 0,
    });
    // The deadline gave the call up, so teardown told the server.
    expect(wire(server, before)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/call',
      'POST /mcp notifications/cancelled',
    ]);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });

  it('ends a hung tools/call on the call deadline while discovery keeps its larger one', async () => {
    const server = await start(mcpHandler({ 'tools/call': reply.hang() }));
    const tools = await mountConnections([
      connect(server, { limits: { discovery: { timeoutMs: 10_000 }, call: { timeoutMs: 300 } } }),
    ]);
    const echo = tools[0] as AnyRuntimeToolDefinition;
    const before = server.requests.length;
    const startedAt = performance.now();
    const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
    const elapsed = performance.now() - startedAt;
    expect(result).toEqual({
      ok: false,
      code: 'CONNECTION_TIMEOUT',
      details: {
        message: 'The connection timed out after 300 ms.',
        reason: 'deadline-exceeded',
        operation: 'tools/call',
        phase: 'call',
        timeoutMs: 300,
        observedReadBytes: 0,
      },
      retryable: false,
    });
    expect(toolCauseFromResult(result)).toBeInstanceOf(ConnectionTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(WITHIN_MS);
    // The deadline gave the call up, so teardown told the server.
    expect(wire(server, before)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/call',
      'POST /mcp notifications/cancelled',
    ]);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });
  it('ends discovery in ConnectionTimeoutError at a notifications/initialized that never answers', async () => {
    const server = await start(mcpHandler({ 'notifications/initialized': reply.hang() }));
    const startedAt = performance.now();
    const error = await rejectionOf(mountConnections([connect(server, { timeoutMs: 500 })]));
    expect(performance.now() - startedAt).toBeLessThan(WITHIN_MS);
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({
      timeoutMs: 500,
      operation: 'notifications/initialized',
      phase: 'discovery',
      observedReadBytes: 0,
    });
    expect(wire(server)).toEqual(HANDSHAKE);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });
});

describe('a drip-fed JSON body', () => {
  it('ends in ConnectionTimeoutError at initialize with the bytes it had read', async () => {
    const server = await start(
      mcpHandler({
        initialize: reply.drip({ contentType: 'application/json', byte: ' ', intervalMs: 20 }),
      }),
    );
    const startedAt = performance.now();
    const error = await rejectionOf(mountConnections([connect(server, { timeoutMs: 400 })]));
    const elapsed = performance.now() - startedAt;
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 400, operation: 'initialize', phase: 'discovery' });
    const observed = (error as ConnectionTimeoutError).observedReadBytes;
    expect(observed).toBeGreaterThan(0);
    // One byte per 20 ms tick at most: the drip cannot have sent more than the elapsed time allows.
    expect(observed).toBeLessThanOrEqual(Math.ceil(elapsed / 20));
    expect(elapsed).toBeLessThan(WITHIN_MS);
    expect(wire(server)).toEqual(['POST /mcp initialize']);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });

  it('ends a call in ConnectionTimeoutError at tools/call with the bytes it had read', async () => {
    const server = await start(
      mcpHandler({
        'tools/call': reply.drip({ contentType: 'application/json', byte: ' ', intervalMs: 20 }),
      }),
    );
    const tools = await mountConnections([
      connect(server, { limits: { call: { timeoutMs: 400 } } }),
    ]);
    const before = server.requests.length;
    const startedAt = performance.now();
    const result = await runTool(
      tools[0] as AnyRuntimeToolDefinition,
      { message: 'hi' },
      {
        source: 'agent',
      },
    );
    expect(performance.now() - startedAt).toBeLessThan(WITHIN_MS);
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionTimeoutError);
    expect(cause).toMatchObject({ timeoutMs: 400, operation: 'tools/call', phase: 'call' });
    expect((cause as ConnectionTimeoutError).observedReadBytes).toBeGreaterThan(0);
    // The deadline gave the call up, so teardown told the server.
    expect(wire(server, before)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/call',
      'POST /mcp notifications/cancelled',
    ]);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });
});

describe('a stateful session', () => {
  it('is ended at teardown with a DELETE carrying the mcp-session-id', async () => {
    const server = await start(mcpHandler({}, { sessionId: 'session-42' }));
    const tools = await mountConnections([connect(server)]);
    const result = await runTool(
      tools[0] as AnyRuntimeToolDefinition,
      { message: 'hi' },
      {
        source: 'agent',
      },
    );
    expect(result).toEqual({ ok: true, data: { content: [{ type: 'text', text: 'Echo: hi' }] } });
    expect(wire(server)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/list',
      'DELETE /mcp',
      ...HANDSHAKE,
      'POST /mcp tools/call',
      'DELETE /mcp',
    ]);
    expect(server.requests.map((request) => request.headers['mcp-session-id'])).toEqual([
      undefined,
      'session-42',
      'session-42',
      'session-42',
      undefined,
      'session-42',
      'session-42',
      'session-42',
    ]);
  });

  it('bounds a DELETE that never answers: the call still completes after about 2 s', async () => {
    const server = await start(mcpHandler({ DELETE: reply.hang() }, { sessionId: 'session-42' }));
    const tools = await mountConnections([connect(server)]);
    await expect.poll(() => server.closedRequests()).toBe(1);
    const startedAt = performance.now();
    const result = await runTool(
      tools[0] as AnyRuntimeToolDefinition,
      { message: 'hi' },
      {
        source: 'agent',
      },
    );
    const elapsed = performance.now() - startedAt;
    expect(result).toEqual({ ok: true, data: { content: [{ type: 'text', text: 'Echo: hi' }] } });
    // The session-end bound is 2 s; the call waited for it (less the few ms a timer may fire early
    // on a busy loop, as performance.now measures it), and not much longer.
    expect(elapsed).toBeGreaterThanOrEqual(1_975);
    expect(elapsed).toBeLessThan(2_000 + WITHIN_MS);
    expect(wire(server)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/list',
      'DELETE /mcp',
      ...HANDSHAKE,
      'POST /mcp tools/call',
      'DELETE /mcp',
    ]);
    await expect.poll(() => server.closedRequests()).toBe(2);
  });
});
