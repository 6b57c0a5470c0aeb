/**
 * Progress a server sends only on the session's standalone stream, as mcp-framework 0.2.x does
 * (issue 43): a 2025 call that asked for progress in a stateful session holds that stream for its
 * length and relays only the reports that carry its token. A server that refuses the stream
 * (405), a sessionless server and a call nobody listens to change nothing; the stream is closed with
 * the call on every outcome, and its failure never fails the call (its bytes count toward the
 * call's ceiling, as on every stream of the call). Against an SDK v1 server whose
 * tool sends its progress without a related request, and the fault server for a stream that
 * hangs, is not SSE or is cut.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AnyRuntimeToolDefinition, runTool } from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  type McpClientConnectionConfig,
  mountConnections,
} from '../../src/connections/index.js';
import {
  type FaultReply,
  type FaultServer,
  mcpHandler,
  reply,
  startFaultServer,
} from '../fixtures/fault-server.js';
import {
  type SessionPeer,
  type SessionPeerOptions,
  startSessionPeer,
} from '../fixtures/mcp-session-peer.js';
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

function running(): SessionPeer {
  if (peer === undefined) throw new Error('no session peer');
  return peer;
}

/** Starts a peer, mounts its `steps` tool and forgets the mount's requests. */
async function mountSteps(options: SessionPeerOptions = {}): Promise<AnyRuntimeToolDefinition> {
  peer = await startSessionPeer(options);
  const [steps] = await mountConnections([
    defineMcpClientConnection({ name: 'sessions', transport: { url: peer.url } }),
  ]);
  if (steps === undefined) throw new Error('steps was not mounted');
  peer.resetLog();
  return steps;
}

/** Calls `steps` listening for progress; each report is acknowledged to the peer. */
async function callListening(tool: AnyRuntimeToolDefinition, signal?: AbortSignal) {
  const reports: { progress: number; total: number | undefined }[] = [];
  const result = await runTool(
    tool,
    { count: 3 },
    {
      source: 'agent',
      ...(signal === undefined ? {} : { signal }),
      reportProgress: (progress, total) => {
        reports.push({ progress, total });
        running().acknowledgeProgress();
      },
    },
  );
  return { result, reports };
}

/** The peer's log as `[method, JSON-RPC methods, session label, status]`. */
function wire(): (string | number | undefined)[][] {
  return running().log.map((request) => [
    request.method,
    request.rpcMethods.join(','),
    request.session,
    request.status,
  ]);
}

const DONE = { ok: true, data: { content: [{ type: 'text', text: '3 steps' }] } };
const EVERY_REPORT = [
  { progress: 1, total: 3 },
  { progress: 2, total: 3 },
  { progress: 3, total: 3 },
];

describe('a 2025 call that asks for progress in a stateful session', () => {
  it('holds the standalone stream and relays, in order, only the reports that carry its token', async () => {
    const steps = await mountSteps();
    const { result, reports } = await callListening(steps);
    expect(result).toEqual(DONE);
    // The peer's tool sent `not-<token>` first, on the same stream: not relayed.
    expect(reports).toEqual(EVERY_REPORT);
    expect(wire()).toEqual([
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's2', 202],
      ['GET', '', 's2', 200],
      ['POST', 'tools/call', 's2', 200],
      ['DELETE', '', 's2', 200],
    ]);
  });

  it('closes the stream when the call ends: the server sees it end although its session lives on', async () => {
    const steps = await mountSteps({ refuseDelete: true });
    const { result } = await callListening(steps);
    expect(result).toEqual(DONE);
    expect(wire().at(-1)).toEqual(['DELETE', '', 's2', 405]);
    await expect.poll(() => running().standalone).toEqual({ opened: 1, closed: 1 });
  });

  it('closes the stream when the caller cancels mid-call, with the exact reason', async () => {
    const steps = await mountSteps({ refuseDelete: true });
    const controller = new AbortController();
    const reports: number[] = [];
    const result = await runTool(
      steps,
      { count: 3 },
      {
        source: 'agent',
        signal: controller.signal,
        reportProgress: (progress) => {
          reports.push(progress);
          controller.abort('enough');
        },
      },
    );
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(reports).toEqual([1]);
    await expect.poll(() => running().standalone).toEqual({ opened: 1, closed: 1 });
  });

  it('goes on without it when the server refuses the stream (405): same answer, no progress', async () => {
    const steps = await mountSteps({ refuseGet: true });
    const { result, reports } = await callListening(steps);
    expect(result).toEqual(DONE);
    // With no stream open, the SDK server drops progress sent apart from the request.
    expect(reports).toEqual([]);
    expect(wire()).toEqual([
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', 's2', 202],
      ['GET', '', 's2', 405],
      ['POST', 'tools/call', 's2', 200],
      ['DELETE', '', 's2', 200],
    ]);
  });

  it('opens no stream when nobody listens for progress', async () => {
    const steps = await mountSteps();
    const result = await runTool(steps, { count: 3 }, { source: 'agent' });
    expect(result).toEqual(DONE);
    expect(wire().map(([method]) => method)).toEqual(['POST', 'POST', 'POST', 'DELETE']);
    expect(running().standalone).toEqual({ opened: 0, closed: 0 });
  });
});

describe('a 2025 call that asks for progress of a sessionless server', () => {
  it('sends no GET: there is no session whose stream could carry it', async () => {
    const steps = await mountSteps({ stateless: true });
    const { result, reports } = await callListening(steps);
    expect(result).toEqual(DONE);
    expect(reports).toEqual([]);
    expect(wire()).toEqual([
      ['POST', 'initialize', '-', 200],
      ['POST', 'notifications/initialized', '-', 202],
      ['POST', 'tools/call', '-', 200],
    ]);
  });
});

describe('a session stream held only for progress that fails', () => {
  /** Mounts the fault server's echo tool on a stateful session and calls it listening for progress. */
  async function callEcho(get: FaultReply, limits?: McpClientConnectionConfig['limits']) {
    faulty = await startFaultServer(mcpHandler({ GET: get }, { sessionId: 's-1' }));
    const [echo] = await mountConnections([
      defineMcpClientConnection({
        name: 'faulty',
        transport: { url: faulty.url },
        ...(limits === undefined ? {} : { limits }),
      }),
    ]);
    if (echo === undefined) throw new Error('echo was not mounted');
    const started = Date.now();
    const result = await runTool(
      echo,
      { message: 'hi' },
      { source: 'agent', reportProgress: () => {} },
    );
    return { result, elapsedMs: Date.now() - started, server: faulty };
  }
  const ECHOED = { ok: true, data: { content: [{ type: 'text', text: 'Echo: hi' }] } };

  it('never answers: the call goes on once the handshake deadline passes, and answers', async () => {
    const { result, elapsedMs, server } = await callEcho(reply.hang(), {
      discovery: { timeoutMs: 300 },
    });
    expect(result).toEqual(ECHOED);
    expect(elapsedMs).toBeGreaterThanOrEqual(250);
    expect(elapsedMs).toBeLessThan(5_000);
    // The hung GET is abandoned with the call.
    await expect.poll(() => server.closedRequests()).toBe(1);
  });

  it('floods: its bytes count toward the call as on any stream of it, which ends in the size error, the stream closed', async () => {
    const flood = `: ${'x'.repeat(64 * 1024)}\n\n`;
    const { result, server } = await callEcho(reply.sse([flood], { keepOpen: true }), {
      call: { maxResponseBytes: 4 * 1024 },
      discovery: { maxResponseBytes: 16 * 1024 },
    });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_RESPONSE_TOO_LARGE' });
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it.each([
    ['answers 200 with a JSON body instead of a stream', reply.json(200, { no: 'stream' })],
    [
      'opens the stream, then cuts the connection',
      reply.raw(200, { 'content-type': 'text/event-stream' }, [': hi\n\n'], { cut: true }),
    ],
  ] as const)('%s: the call answers as if none was held', async (_, get) => {
    const { result } = await callEcho(get);
    expect(result).toEqual(ECHOED);
  });
});
