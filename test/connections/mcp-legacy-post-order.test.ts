/**
 * A legacy POST step waits for both of its answers, in either order (decision 0019): the POST's
 * own `202` and the JSON-RPC response on the stream. The server here pushes the response first and
 * answers the POST 100 ms later (or never): the call takes what the stream brought, the POST is
 * not aborted on its way, and once the answer is held neither the POST's status nor the request's
 * deadline fails the call, and the caller's cancellation sends no `notifications/cancelled`.
 */
import { describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import { ConnectionTimeoutError } from '../../src/connections/index.js';
import type { TransitionRecord } from '../../src/machines/observe.js';
import {
  type FaultReply,
  type LegacyRpcOverride,
  legacyMcpHandler,
  reply,
  sseMessageFrame,
} from '../fixtures/fault-server.js';
import { mountEcho, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

const echoResult = (text: string) => ({ content: [{ type: 'text', text: `Echo: ${text}` }] });
const CALL_WIRE = [
  'GET /mcp',
  'POST /messages initialize',
  'POST /messages notifications/initialized',
  'POST /messages tools/call',
];
/** The call's transitions up to its request, when every handshake answer comes in order. */
const TO_REQUEST = [
  ' -> sse.connecting (xstate.init)',
  'sse.connecting -> sse.initializing (SSE_ENDPOINT)',
  'sse.initializing -> sse.notifying (SSE_MESSAGE)',
  'sse.notifying -> sse.requesting.waiting (xstate.done.actor.postLegacyInitialized)',
];

/** Pushes the correct response onto the stream at once; answers the POST `afterMs` later. */
function answerFirst(then: FaultReply | 'never', afterMs = 100): LegacyRpcOverride {
  return (_request, server, correct) => {
    server.push(sseMessageFrame(correct));
    if (then === 'never') return { reply: reply.hang() };
    return new Promise((resolve) => server.later(afterMs, () => resolve({ reply: then })));
  };
}

/**
 * The echo tool of a connection told `type: 'sse'`, mounted against a well-behaved server; each
 * call then meets `rpc`. Returns what the call's runs record and reach the server.
 */
async function echoMeeting(
  rpc: Record<string, LegacyRpcOverride>,
  limits: {
    readonly call?: { timeoutMs: number };
    readonly discovery?: { timeoutMs: number };
  } = {},
) {
  const server = await start(legacyMcpHandler());
  const records: TransitionRecord[] = [];
  const echo = await mountEcho(server, {
    transport: { url: server.url, type: 'sse' },
    limits,
    observe: (record) => records.push(record),
  });
  server.setHandler(legacyMcpHandler({ rpc }));
  await expect.poll(() => server.openStreams()).toBe(0);
  records.length = 0;
  const closedBefore = server.closedRequests();
  /** Requests the client closed or aborted since the mount, as the server counts them. */
  const closedSince = () => server.closedRequests() - closedBefore;
  return { server, echo, records, before: server.requests.length, closedSince };
}

/** Calls `echo` once and expects the server's echo of `hi`. */
async function expectEchoed(echo: AnyRuntimeToolDefinition): Promise<void> {
  expect(await runTool(echo, { message: 'hi' }, { source: 'agent' })).toEqual({
    ok: true,
    data: echoResult('hi'),
  });
}

function lines(records: readonly TransitionRecord[]): string[] {
  return records.map(({ from, to, event }) => `${from} -> ${to} (${event})`);
}

describe('a legacy request answered on the stream before its POST is accepted', () => {
  it('waits for the 202 and ends on it: the POST is never aborted', async () => {
    const { server, echo, records, before, closedSince } = await echoMeeting({
      'tools/call': answerFirst(reply.status(202, 'Accepted')),
    });
    await expectEchoed(echo);
    expect(lines(records)).toEqual([
      ...TO_REQUEST,
      'sse.requesting.waiting -> closed (xstate.done.actor.postLegacyRequest)',
    ]);
    expect(wire(server, before)).toEqual(CALL_WIRE);
    // Only the stream is closed by the client; every POST was answered to its end.
    await expect.poll(closedSince).toBe(1);
  });

  it('keeps the answer when the POST is then refused', async () => {
    const { echo, records } = await echoMeeting({
      'tools/call': answerFirst(reply.status(500, 'too late')),
    });
    await expectEchoed(echo);
    expect(lines(records).at(-1)).toBe(
      'sse.requesting.waiting -> closed (xstate.done.actor.postLegacyRequest)',
    );
  });

  it('takes the answer at the deadline when the POST never answers, and cancels nothing', async () => {
    const { server, echo, records, before, closedSince } = await echoMeeting(
      { 'tools/call': answerFirst('never') },
      { call: { timeoutMs: 400 } },
    );
    const startedAt = performance.now();
    await expectEchoed(echo);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(390);
    expect(lines(records)).toEqual([
      ...TO_REQUEST,
      'sse.requesting.waiting -> closed (xstate.after.REQUEST_DEADLINE.mcpOperation.sse.requesting.waiting)',
    ]);
    expect(wire(server, before)).toEqual(CALL_WIRE);
    // The stream and the POST that never answered, both closed by the client.
    await expect.poll(closedSince).toBe(2);
  });

  it('sends no notifications/cancelled when the caller cancels once the answer is held', async () => {
    const controller = new AbortController();
    const reason = { why: 'the caller stopped' };
    const { server, echo, records, before } = await echoMeeting({
      'tools/call': (request, faultServer, correct) => {
        faultServer.later(100, () => controller.abort(reason));
        return answerFirst('never')(request, faultServer, correct);
      },
    });
    const result = await runTool(
      echo,
      { message: 'hi' },
      { source: 'agent', signal: controller.signal },
    );
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(lines(records).at(-1)).toBe('sse.requesting.waiting -> closed (CANCEL)');
    expect(wire(server, before)).toEqual(CALL_WIRE);
  });
});

describe('a legacy initialize answered on the stream before its POST is accepted', () => {
  it('waits for the 202 and moves on from it', async () => {
    const { server, echo, records, before } = await echoMeeting({
      initialize: answerFirst(reply.status(202, 'Accepted')),
    });
    await expectEchoed(echo);
    expect(lines(records).slice(0, 4)).toEqual([
      ...TO_REQUEST.slice(0, 2),
      'sse.initializing -> sse.notifying (xstate.done.actor.postLegacyInitialize)',
      TO_REQUEST[3],
    ]);
    expect(wire(server, before)).toEqual(CALL_WIRE);
  });

  it('times out at the handshake deadline when the POST never answers: the handshake is spent', async () => {
    const { echo, records } = await echoMeeting(
      { initialize: answerFirst('never') },
      { discovery: { timeoutMs: 400 } },
    );
    const cause = toolCauseFromResult(await runTool(echo, { message: 'hi' }, { source: 'agent' }));
    expect(cause).toBeInstanceOf(ConnectionTimeoutError);
    expect(cause).toMatchObject({ operation: 'initialize', timeoutMs: 400 });
    expect(lines(records).at(-1)).toBe(
      'sse.initializing -> closed (xstate.after.HANDSHAKE_DEADLINE.mcpOperation.sse.initializing)',
    );
  });
});
