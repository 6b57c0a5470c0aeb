/**
 * Fault scenarios: caller cancellation in every state a call can wait in. The call's raw cause is
 * the caller's exact reason, the machine goes from that state straight to its end, the server sees
 * the request it was serving closed, and nothing is left open.
 */
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import type { TransitionRecord } from '../../src/machines/observe.js';
import {
  type FaultHandler,
  legacyMcpHandler,
  mcpHandler,
  reply,
  sseFrame,
} from '../fixtures/fault-server.js';
import { mountEcho, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

function transitionLine({ from, to, event }: TransitionRecord): string {
  return `${from} -> ${to} (${event})`;
}

/** Records the connection's transitions and resolves when one enters a given state. */
function watchStates() {
  const records: TransitionRecord[] = [];
  const waiters: { state: string; resolve: () => void }[] = [];
  return {
    records,
    observe(record: TransitionRecord) {
      records.push(record);
      for (const waiter of waiters.filter((candidate) => candidate.state === record.to)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    reached(state: string): Promise<void> {
      return new Promise((resolve) => waiters.push({ state, resolve }));
    },
  };
}

interface Scenario {
  /** The handler for discovery, which must succeed. */
  readonly discovery: () => FaultHandler;
  /** The handler for the call, which must leave it waiting in `state`. */
  readonly call: () => FaultHandler;
  /** The state the call waits in when the caller aborts. */
  readonly state: string;
  /** Every transition of the call, from its start to its end. */
  readonly transitions: readonly string[];
  /** What reached the server for the call before the abort. */
  readonly wire: readonly string[];
  /** The `notifications/cancelled` POST teardown sends after the abort, when a request was sent. */
  readonly notice?: string;
  /** How many of those requests were still being answered when the caller aborted. */
  readonly open: number;
}

const streamable = (overrides: Parameters<typeof mcpHandler>[0]) => () => mcpHandler(overrides);

const SCENARIOS: Record<string, Scenario> = {
  initialize: {
    discovery: () => mcpHandler(),
    call: streamable({ initialize: reply.hang() }),
    state: 'session.initializing',
    transitions: [
      ' -> session.initializing (xstate.init)',
      'session.initializing -> closed (CANCEL)',
    ],
    wire: ['POST /mcp initialize'],
    open: 1,
  },
  'notifications/initialized': {
    discovery: () => mcpHandler(),
    call: streamable({ 'notifications/initialized': reply.hang() }),
    state: 'session.notifying',
    transitions: [
      ' -> session.initializing (xstate.init)',
      'session.initializing -> session.notifying (xstate.done.actor.postInitialize)',
      'session.notifying -> closed (CANCEL)',
    ],
    wire: ['POST /mcp initialize', 'POST /mcp notifications/initialized'],
    open: 1,
  },
  'tools/call': {
    discovery: () => mcpHandler(),
    call: streamable({ 'tools/call': reply.hang({ afterHeaders: true }) }),
    state: 'session.requesting.waiting',
    transitions: [
      ' -> session.initializing (xstate.init)',
      'session.initializing -> session.notifying (xstate.done.actor.postInitialize)',
      'session.notifying -> session.requesting.waiting (xstate.done.actor.postInitialized)',
      'session.requesting.waiting -> cancellingRequest (CANCEL)',
      'cancellingRequest -> closed (xstate.done.actor.postCancelled)',
    ],
    wire: ['POST /mcp initialize', 'POST /mcp notifications/initialized', 'POST /mcp tools/call'],
    notice: 'POST /mcp notifications/cancelled',
    open: 1,
  },
  'the wait before resuming a stream': {
    discovery: () => mcpHandler(),
    call: streamable({
      // The stream ends after a priming event; the client waits 5 s before resuming.
      'tools/call': reply.sse([sseFrame({ id: 'evt-1', retry: 5_000, data: '' })]),
    }),
    state: 'session.awaitingResume',
    transitions: [
      ' -> session.initializing (xstate.init)',
      'session.initializing -> session.notifying (xstate.done.actor.postInitialize)',
      'session.notifying -> session.requesting.waiting (xstate.done.actor.postInitialized)',
      'session.requesting.waiting -> session.awaitingResume (xstate.done.actor.postRequest)',
      'session.awaitingResume -> cancellingRequest (CANCEL)',
      'cancellingRequest -> closed (xstate.done.actor.postCancelled)',
    ],
    wire: ['POST /mcp initialize', 'POST /mcp notifications/initialized', 'POST /mcp tools/call'],
    notice: 'POST /mcp notifications/cancelled',
    open: 0,
  },
  'the legacy endpoint wait': {
    discovery: () => legacyMcpHandler(),
    call: () => legacyMcpHandler({ neverSendEndpoint: true }),
    state: 'sse.connecting',
    transitions: [
      ' -> session.initializing (xstate.init)',
      'session.initializing -> sse.connecting (xstate.done.actor.postInitialize)',
      'sse.connecting -> closed (CANCEL)',
    ],
    wire: ['POST /mcp initialize', 'GET /mcp'],
    open: 1,
  },
  'a legacy tools/call': {
    discovery: () => legacyMcpHandler(),
    call: () => legacyMcpHandler({ rpc: { 'tools/call': () => ({ frames: [] }) } }),
    state: 'sse.requesting.waiting',
    transitions: [
      ' -> session.initializing (xstate.init)',
      'session.initializing -> sse.connecting (xstate.done.actor.postInitialize)',
      'sse.connecting -> sse.initializing (SSE_ENDPOINT)',
      'sse.initializing -> sse.notifying (SSE_MESSAGE)',
      'sse.notifying -> sse.requesting.waiting (xstate.done.actor.postLegacyInitialized)',
      'sse.requesting.waiting -> cancellingRequest (CANCEL)',
      'cancellingRequest -> closed (xstate.done.actor.postCancelled)',
    ],
    wire: [
      'POST /mcp initialize',
      'GET /mcp',
      'POST /messages initialize',
      'POST /messages notifications/initialized',
      'POST /messages tools/call',
    ],
    notice: 'POST /messages notifications/cancelled',
    open: 1,
  },
};

describe.each(Object.entries(SCENARIOS))('cancelling during %s', (_label, scenario) => {
  it('keeps the caller reason, closes the request and leaves nothing open', async () => {
    const server = await start(scenario.discovery());
    const watch = watchStates();
    const echo = await mountEcho(server, { observe: watch.observe });
    server.setHandler(scenario.call());
    // A legacy discovery's stream closes at its teardown; let the server notice before counting.
    await expect.poll(() => server.openStreams()).toBe(0);
    const closedBefore = server.closedRequests();
    watch.records.length = 0;
    const before = server.requests.length;
    const controller = new AbortController();
    const reason = { why: 'the caller stopped' };

    const startedAt = performance.now();
    const running = runTool(
      echo,
      { message: 'hi' },
      { source: 'agent', signal: controller.signal },
    );
    await watch.reached(scenario.state);
    await expect.poll(() => wire(server, before)).toEqual(scenario.wire);
    controller.abort(reason);
    const result = await running;
    expect(performance.now() - startedAt).toBeLessThan(3_000);

    expect(result).toMatchObject({ ok: false, code: 'CANCELLED', retryable: false });
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(watch.records.at(-1)).toMatchObject(
      scenario.notice === undefined
        ? { from: scenario.state, to: 'closed', event: 'CANCEL' }
        : { from: 'cancellingRequest', to: 'closed' },
    );
    expect(watch.records.map(transitionLine)).toEqual(scenario.transitions);
    expect(wire(server, before)).toEqual([
      ...scenario.wire,
      ...(scenario.notice === undefined ? [] : [scenario.notice]),
    ]);
    await expect.poll(() => server.openStreams()).toBe(0);
    await expect.poll(() => server.closedRequests() - closedBefore).toBe(scenario.open);
  });
});

describe('cancelling while the token provider is pending', () => {
  it('keeps the caller reason and sends nothing, even when the token arrives later', async () => {
    const server = await start(mcpHandler());
    const watch = watchStates();
    let release: ((token: string) => void) | undefined;
    let provided: (() => void) | undefined;
    const asked = new Promise<void>((resolve) => {
      provided = resolve;
    });
    const token = (context?: unknown) => {
      if (context === undefined || release !== undefined) return 'fresh-token';
      provided?.();
      return new Promise<string>((resolve) => {
        release = resolve;
      });
    };
    const echo = await mountEcho(server, { observe: watch.observe, token });
    watch.records.length = 0;
    const before = server.requests.length;
    const controller = new AbortController();
    const reason = new Error('the caller stopped');

    const running = runTool(
      echo,
      { message: 'hi' },
      { source: 'agent', signal: controller.signal },
    );
    await asked;
    controller.abort(reason);
    const result = await running;
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED', retryable: false });
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(watch.records.map(transitionLine)).toEqual([
      ' -> credentials (xstate.init)',
      'credentials -> closed (CANCEL)',
    ]);

    // The stale token resolves now; the cancelled run must not use it. A later call uses its own.
    release?.('stale-token');
    const next = await runTool(echo, { message: 'again' }, { source: 'agent' });
    expect(next).toEqual({ ok: true, data: { content: [{ type: 'text', text: 'Echo: again' }] } });
    expect(wire(server, before)).toEqual([
      'POST /mcp initialize',
      'POST /mcp notifications/initialized',
      'POST /mcp tools/call',
    ]);
    expect(server.requests.slice(before).map((request) => request.headers.authorization)).toEqual(
      Array(3).fill('Bearer fresh-token'),
    );
  });
});
