/**
 * A session the server lost is re-opened once (issue 43; MCP 2025-11-25, transports: a 404 to a
 * request carrying `Mcp-Session-Id` means the client MUST start a new session with a fresh
 * `initialize`): against a real stateful SDK v1 server that loses its sessions between our
 * `initialize` and our `tools/list` or `tools/call`, as a restart would, and the fault server for
 * a session lost in the middle of a paged listing. The new session is a fresh handshake without a
 * session id, the request is sent again in it (a listing from its first page), and the tool runs
 * once; a server that loses the new session too ends typed, `ConnectionRequestError` 404. The new
 * handshake runs inside the call's window and carries neither the lost session's id nor its version.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionRequestError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import {
  type FaultServer,
  mcpHandler,
  reply,
  type SeenRequest,
  startFaultServer,
} from '../fixtures/fault-server.js';
import { type SessionPeer, startSessionPeer } from '../fixtures/mcp-session-peer.js';
import { rejectionOf } from '../support/fault-suite.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

const unhandled = trackUnhandledRejections();
let baseline: ReturnType<typeof activeResourceCounts>;
beforeAll(() => {
  baseline = activeResourceCounts();
});
afterAll(async () => {
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

let peer: SessionPeer | undefined;
let faulty: FaultServer | undefined;
afterEach(async () => {
  await peer?.close();
  await faulty?.close();
  peer = undefined;
  faulty = undefined;
});

async function startPeer(): Promise<SessionPeer> {
  peer = await startSessionPeer();
  return peer;
}

const connection = (url: string) =>
  defineMcpClientConnection({ name: 'sessions', transport: { url } });

/** The peer's log from the first `initialize` on, as `[method, JSON-RPC methods, session, status]`. */
function handshakeOn(server: SessionPeer): (string | number | undefined)[][] {
  const first = server.log.findIndex((request) => request.rpcMethods.includes('initialize'));
  return server.log
    .slice(first)
    .map((request) => [
      request.method,
      request.rpcMethods.join(','),
      request.session,
      request.status,
    ]);
}

describe('a server that loses the session between initialize and tools/list', () => {
  it('is given a new session and the listing, and the mount succeeds', async () => {
    const server = await startPeer();
    server.loseSessionsAfterInitialized(1);
    const tools = await mountConnections([connection(server.url)]);
    expect(tools.map((tool) => tool.name)).toEqual(['steps']);
    expect(handshakeOn(server)).toEqual([
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's1', 202],
      ['POST', 'tools/list', 's1', 404],
      // A fresh initialize: no session id (`-`), as the transport requires.
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's2', 202],
      ['POST', 'tools/list', 's2', 200],
      ['DELETE', '', 's2', 200],
    ]);
  });

  it('ends in ConnectionRequestError 404 when the new session is lost too, after one re-open', async () => {
    const server = await startPeer();
    server.loseSessionsAfterInitialized(Number.POSITIVE_INFINITY);
    const error = await rejectionOf(mountConnections([connection(server.url)]));
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 404, operation: 'tools/list', phase: 'discovery' });
    expect(handshakeOn(server).map(([method, rpc, , status]) => [method, rpc, status])).toEqual([
      ['POST', 'initialize', 200],
      ['POST', 'notifications/initialized', 202],
      ['POST', 'tools/list', 404],
      ['POST', 'initialize', 200],
      ['POST', 'notifications/initialized', 202],
      ['POST', 'tools/list', 404],
      // Teardown ends the session it holds, best effort; the server no longer knows it either.
      ['DELETE', '', 404],
    ]);
  });
});

describe('a server that loses the session in the middle of a paged listing', () => {
  it('starts the listing over in the new session: each tool once, the first page asked again', async () => {
    let lost = false;
    const pages = (request: SeenRequest) => {
      const cursor = (request.rpc?.params as { cursor?: string } | undefined)?.cursor;
      if (cursor === 'page-2' && !lost) {
        lost = true;
        return reply.json(404, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32001, message: 'Session not found' },
        });
      }
      const page = cursor === undefined ? 1 : 2;
      const tools = [{ name: `t${page}`, inputSchema: { type: 'object', properties: {} } }];
      const result = page === 1 ? { tools, nextCursor: 'page-2' } : { tools };
      return reply.json(200, { jsonrpc: '2.0', id: request.rpc?.id, result });
    };
    faulty = await startFaultServer(mcpHandler({ 'tools/list': pages }, { sessionId: 's-1' }));
    const tools = await mountConnections([
      defineMcpClientConnection({
        name: 'paged',
        transport: { url: faulty.url, protocolVersion: '2025-11-25' },
      }),
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['t1', 't2']);
    expect(
      faulty.requests.map((request) => [
        request.method,
        request.rpc?.method,
        (request.rpc?.params as { cursor?: string } | undefined)?.cursor,
        request.headers['mcp-session-id'],
      ]),
    ).toEqual([
      ['POST', 'initialize', undefined, undefined],
      ['POST', 'notifications/initialized', undefined, 's-1'],
      ['POST', 'tools/list', undefined, 's-1'],
      ['POST', 'tools/list', 'page-2', 's-1'],
      ['POST', 'initialize', undefined, undefined],
      ['POST', 'notifications/initialized', undefined, 's-1'],
      ['POST', 'tools/list', undefined, 's-1'],
      ['POST', 'tools/list', 'page-2', 's-1'],
      ['DELETE', undefined, undefined, 's-1'],
    ]);
  });
});

describe('a server that loses the session between initialize and tools/call', () => {
  it('is given a new session and the call, which the tool runs once', async () => {
    const server = await startPeer();
    const [steps] = await mountConnections([connection(server.url)]);
    if (steps === undefined) throw new Error('steps was not mounted');
    server.resetLog();
    server.loseSessionsAfterInitialized(1);
    const result = await runTool(steps, { count: 2 }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: { content: [{ type: 'text', text: '2 steps' }] } });
    expect(server.toolRuns).toBe(1);
    expect(handshakeOn(server)).toEqual([
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's2', 202],
      ['POST', 'tools/call', 's2', 404],
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's3', 202],
      ['POST', 'tools/call', 's3', 200],
      ['DELETE', '', 's3', 200],
    ]);
  });

  it('re-opens the progress stream in the new session, and relays the progress sent there', async () => {
    const server = await startPeer();
    const [steps] = await mountConnections([connection(server.url)]);
    if (steps === undefined) throw new Error('steps was not mounted');
    server.resetLog();
    server.loseSessionsAfterInitialized(1);
    const reports: number[] = [];
    const result = await runTool(
      steps,
      { count: 2 },
      {
        source: 'agent',
        reportProgress: (progress) => {
          reports.push(progress);
          server.acknowledgeProgress();
        },
      },
    );
    expect(result).toMatchObject({ ok: true });
    expect(reports).toEqual([1, 2]);
    expect(server.toolRuns).toBe(1);
    expect(handshakeOn(server)).toEqual([
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's2', 202],
      // The lost session's stream is refused as its request is.
      ['GET', '', 's2', 404],
      ['POST', 'tools/call', 's2', 404],
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's3', 202],
      ['GET', '', 's3', 200],
      ['POST', 'tools/call', 's3', 200],
      ['DELETE', '', 's3', 200],
    ]);
  });

  it('ends in CONNECTION_REQUEST_FAILED (ConnectionRequestError 404) when the new session is lost too; the tool never runs', async () => {
    const server = await startPeer();
    const [steps] = await mountConnections([connection(server.url)]);
    if (steps === undefined) throw new Error('steps was not mounted');
    server.resetLog();
    server.loseSessionsAfterInitialized(Number.POSITIVE_INFINITY);
    const result = await runTool(steps, { count: 2 }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_REQUEST_FAILED' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionRequestError);
    expect(cause).toMatchObject({ status: 404, operation: 'tools/call', phase: 'call' });
    expect(server.toolRuns).toBe(0);
    expect(
      handshakeOn(server).filter(([, rpc]) => rpc === 'initialize' || rpc === 'tools/call'),
    ).toHaveLength(4);
  });
});

describe('a session lost late in the call', () => {
  it('is re-opened inside the call window: the run ends CONNECTION_TIMEOUT at the first deadline, not a fresh one', async () => {
    let calls = 0;
    const call = async (request: SeenRequest) => {
      calls += 1;
      if (calls > 1) return reply.hang();
      // The 404 comes 2.5 s into a 3 s window: 0.5 s are left for the new session and the call.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      return reply.json(404, {
        jsonrpc: '2.0',
        id: request.rpc?.id ?? null,
        error: { code: -32001, message: 'Session not found' },
      });
    };
    faulty = await startFaultServer(mcpHandler({ 'tools/call': call }, { sessionId: 's-1' }));
    const [tool] = await mountConnections([
      defineMcpClientConnection({
        name: 'late',
        transport: { url: faulty.url, protocolVersion: '2025-11-25' },
        limits: { call: { timeoutMs: 3_000 } },
      }),
    ]);
    if (tool === undefined) throw new Error('no tool mounted');
    const startedAt = performance.now();
    const result = await runTool(tool, { message: 'x' }, { source: 'agent' });
    const elapsedMs = performance.now() - startedAt;
    expect(result.ok ? 'ok' : result.code).toBe('CONNECTION_TIMEOUT');
    expect(calls).toBe(2);
    // A fresh window would end at 2.5 s + 3 s; the call's own ends at 3 s.
    expect(elapsedMs).toBeLessThan(4_500);
  });

  it('ends CONNECTION_TIMEOUT at the call deadline when the new handshake never answers, not after the discovery timeout', async () => {
    let lost = false;
    const call = async (request: SeenRequest) => {
      // The 404 comes 2.5 s into a 3 s window; the new session's initialize then never answers.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      lost = true;
      return reply.json(404, {
        jsonrpc: '2.0',
        id: request.rpc?.id ?? null,
        error: { code: -32001, message: 'Session not found' },
      });
    };
    const served = mcpHandler({ 'tools/call': call }, { sessionId: 's-1' });
    const initializes: (string | undefined)[][] = [];
    faulty = await startFaultServer((request, server) => {
      if (request.rpc?.method !== 'initialize') return served(request, server);
      const { 'mcp-session-id': session, 'mcp-protocol-version': version } = request.headers;
      initializes.push([session, version]);
      return lost ? reply.hang() : served(request, server);
    });
    const [tool] = await mountConnections([
      defineMcpClientConnection({
        name: 'late-handshake',
        transport: { url: faulty.url, protocolVersion: '2025-11-25' },
        limits: { discovery: { timeoutMs: 15_000 }, call: { timeoutMs: 3_000 } },
      }),
    ]);
    if (tool === undefined) throw new Error('no tool mounted');
    initializes.length = 0;
    const startedAt = performance.now();
    const result = await runTool(tool, { message: 'x' }, { source: 'agent' });
    const elapsedMs = performance.now() - startedAt;
    expect(result.ok ? 'ok' : result.code).toBe('CONNECTION_TIMEOUT');
    // The call's handshake, then the new session's, which hung: a new client's, with neither the
    // lost session's id nor the version it negotiated.
    expect(initializes).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
    // A handshake window of its own would end at 2.5 s + 15 s; the call's ends at 3 s.
    expect(elapsedMs).toBeLessThan(4_500);
  });
});
