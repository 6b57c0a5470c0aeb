/**
 * The opt-in retry policy (`retry: { attempts }`) on real servers on loopback: what is tried
 * again (a request the server never received, a failure before the MCP call was sent, a tool
 * marked read-only or idempotent, an OpenAPI GET) and what never is (a call the server received
 * for a tool that says nothing, an OpenAPI POST), `Retry-After` in both forms honoured exactly,
 * never past the operation's deadline, the caller's abort in a wait, and every attempt a
 * transition of the `retry` machine.
 */
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionNetworkError,
  ConnectionRequestError,
  ConnectionTimeoutError,
  defineOpenApiConnection,
  mountConnections,
  type TransitionRecord,
} from '../../src/connections/index.js';
import {
  answerRpc,
  DEFAULT_FAULT_TOOLS,
  type FaultHandler,
  mcpHandler,
  reply,
} from '../fixtures/fault-server.js';
import { listenOnLoopback, readBodyText } from '../fixtures/http-helpers.js';
import { HANDSHAKE, mountEcho, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

/** The `echo` tool as the server marks it: read-only, or idempotent. */
const markedEcho = (annotations: Record<string, boolean>) => [
  { ...(DEFAULT_FAULT_TOOLS[0] as object), annotations },
];

/** Answers `tools/call` with `first` for the first `times` calls, then as the server would. */
function failingCalls(times: number, first: ReturnType<typeof reply.status>): FaultHandler {
  let calls = 0;
  return (request) => {
    calls += 1;
    return calls <= times ? first : reply.json(200, answerRpc(request));
  };
}

/**
 * How early a timer may fire as `performance.now()` measures it: libuv dates a timer from the
 * loop's cached clock, which lags the real one on a busy loop, so a 1 s delay was once measured as
 * 996 ms. The waits below are checked against their delay less this, and capped above.
 */
const TIMER_EARLY_MS = 25;

/** The transitions of the `retry` machine, as `from -> to (event)`, and when each happened. */
function retryTrace() {
  const records: TransitionRecord[] = [];
  return {
    observe: (record: TransitionRecord) => {
      if (record.machine === 'retry') records.push(record);
    },
    steps: () =>
      records.map((record) => `${record.from || '(start)'} -> ${record.to} (${record.event})`),
    /** Milliseconds the run spent in `backingOff`, wait by wait. */
    waits: () =>
      records
        .filter((record) => record.from === 'backingOff')
        .map((record, index) => {
          const entered = records.filter((r) => r.to === 'backingOff')[index] as TransitionRecord;
          return record.elapsedMs - entered.elapsedMs;
        }),
  };
}

const ONE_RETRY = [
  '(start) -> attempt.running (xstate.init)',
  'attempt.running -> backingOff (ATTEMPT_FAILED)',
  'backingOff -> attempt.running (xstate.after.RETRY_DELAY.retry.backingOff)',
  'attempt.running -> closed (ATTEMPT_SUCCEEDED)',
];

describe('an MCP call with retry: { attempts: 3 }', () => {
  it.each([
    ['read-only', { readOnlyHint: true }],
    ['idempotent', { idempotentHint: true }],
  ])(
    'a %s tool answered 503 with Retry-After: 1 is called again after 1 s, and succeeds',
    async (_label, annotations) => {
      const server = await start(
        mcpHandler(
          { 'tools/call': failingCalls(1, reply.status(503, 'busy', { 'retry-after': '1' })) },
          { tools: markedEcho(annotations) },
        ),
      );
      const trace = retryTrace();
      const echo = await mountEcho(server, { retry: { attempts: 3 }, observe: trace.observe });
      const from = server.requests.length;
      const result = await runTool(echo, { message: 'again' }, { source: 'agent' });
      expect(result).toEqual({
        ok: true,
        data: { content: [{ type: 'text', text: 'Echo: again' }] },
      });
      expect(wire(server, from)).toEqual([
        ...HANDSHAKE,
        'POST /mcp tools/call',
        ...HANDSHAKE,
        'POST /mcp tools/call',
      ]);
      // The listing at mount ran under the policy too, and needed one attempt.
      expect(trace.steps()).toEqual([
        '(start) -> attempt.running (xstate.init)',
        'attempt.running -> closed (ATTEMPT_SUCCEEDED)',
        ...ONE_RETRY,
      ]);
      const [waited] = trace.waits();
      expect(waited).toBeGreaterThanOrEqual(1_000 - TIMER_EARLY_MS);
      expect(waited).toBeLessThan(1_500);
    },
  );

  it('a tool that says nothing is not called again after a 503: the server received it', async () => {
    const server = await start(
      mcpHandler({
        'tools/call': failingCalls(1, reply.status(503, 'busy', { 'retry-after': '1' })),
      }),
    );
    const trace = retryTrace();
    const echo = await mountEcho(server, { retry: { attempts: 3 }, observe: trace.observe });
    const from = server.requests.length;
    const result = await runTool(echo, { message: 'once' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(ConnectionRequestError.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ status: 503, retryAfterMs: 1_000, operation: 'tools/call' });
    expect(wire(server, from)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
    expect(trace.steps().slice(2)).toEqual([
      '(start) -> attempt.running (xstate.init)',
      'attempt.running -> closed (ATTEMPT_FAILED)',
    ]);
  });

  it('a failure before the call was sent (initialize answered 503) is tried again for any tool', async () => {
    let initializes = 0;
    const server = await start(
      mcpHandler({
        initialize: (request) => {
          initializes += 1;
          // The mount's listing is the first; the call's first handshake is refused.
          return initializes === 2
            ? reply.status(503, 'warming up')
            : reply.json(200, answerRpc(request));
        },
      }),
    );
    const trace = retryTrace();
    const echo = await mountEcho(server, { retry: { attempts: 2 }, observe: trace.observe });
    const from = server.requests.length;
    const result = await runTool(echo, { message: 'unsent' }, { source: 'agent' });
    expect(result.ok).toBe(true);
    expect(wire(server, from)).toEqual([
      'POST /mcp initialize',
      ...HANDSHAKE,
      'POST /mcp tools/call',
    ]);
    expect(trace.steps().slice(2)).toEqual(ONE_RETRY);
    // No Retry-After: the first backoff, 200 ms with equal jitter.
    const [waited] = trace.waits();
    expect(waited).toBeGreaterThanOrEqual(100 - TIMER_EARLY_MS);
    expect(waited).toBeLessThan(700);
  });

  it('makes exactly `attempts` attempts, then fails with the last answer', async () => {
    const server = await start(
      mcpHandler(
        { 'tools/call': reply.status(503, 'still busy', { 'retry-after': '0' }) },
        { tools: markedEcho({ readOnlyHint: true }) },
      ),
    );
    const trace = retryTrace();
    const echo = await mountEcho(server, { retry: { attempts: 3 }, observe: trace.observe });
    const from = server.requests.length;
    const result = await runTool(echo, { message: 'x' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_REQUEST_FAILED', retryable: true });
    expect(toolCauseFromResult(result)).toMatchObject({ status: 503, retryAfterMs: 0 });
    expect(server.count((request) => request.rpc?.method === 'tools/call')).toBe(3);
    expect(wire(server, from)).toHaveLength(9);
    expect(trace.steps().slice(2)).toEqual([
      '(start) -> attempt.running (xstate.init)',
      'attempt.running -> backingOff (ATTEMPT_FAILED)',
      'backingOff -> attempt.running (xstate.after.RETRY_DELAY.retry.backingOff)',
      'attempt.running -> backingOff (ATTEMPT_FAILED)',
      'backingOff -> attempt.running (xstate.after.RETRY_DELAY.retry.backingOff)',
      'attempt.running -> closed (ATTEMPT_FAILED)',
    ]);
    expect(trace.waits().map((ms) => ms < 100)).toEqual([true, true]);
  });

  it('does not wait for a Retry-After that ends past the deadline: it fails at once with it', async () => {
    const server = await start(
      mcpHandler(
        { 'tools/call': reply.status(429, 'later', { 'retry-after': '5' }) },
        { tools: markedEcho({ readOnlyHint: true }) },
      ),
    );
    // The deadline of a call is the longest one attempt may take: 1 s of handshake, 1 s of call.
    const echo = await mountEcho(server, { retry: { attempts: 3 }, timeoutMs: 1_000 });
    const started = performance.now();
    const result = await runTool(echo, { message: 'x' }, { source: 'agent' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(toolCauseFromResult(result)).toMatchObject({ status: 429, retryAfterMs: 5_000 });
    expect(server.count((request) => request.rpc?.method === 'tools/call')).toBe(1);
  });

  it('never runs past the deadline: a second attempt that hangs ends at the deadline, and the server is told', async () => {
    let calls = 0;
    const server = await start(
      mcpHandler(
        {
          'tools/call': () => {
            calls += 1;
            return calls === 1 ? reply.status(503, 'busy', { 'retry-after': '1' }) : reply.hang();
          },
        },
        { tools: markedEcho({ readOnlyHint: true }) },
      ),
    );
    const trace = retryTrace();
    // Deadline: 500 ms of handshake + 1 500 ms of call = 2 000 ms for every attempt and wait;
    // the second attempt alone could have run until about 1 000 + 1 500 ms.
    const echo = await mountEcho(server, {
      retry: { attempts: 3 },
      limits: { discovery: { timeoutMs: 500 }, call: { timeoutMs: 1_500 } },
      observe: trace.observe,
    });
    const started = performance.now();
    const result = await runTool(echo, { message: 'x' }, { source: 'agent' });
    const elapsed = performance.now() - started;
    const cause = toolCauseFromResult(result);
    expect(ConnectionTimeoutError.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ timeoutMs: 2_000, operation: 'tools/call', phase: 'call' });
    expect(elapsed).toBeGreaterThanOrEqual(2_000 - TIMER_EARLY_MS);
    expect(elapsed).toBeLessThan(2_400);
    expect(trace.steps().slice(2)).toEqual([
      '(start) -> attempt.running (xstate.init)',
      'attempt.running -> backingOff (ATTEMPT_FAILED)',
      'backingOff -> attempt.running (xstate.after.RETRY_DELAY.retry.backingOff)',
      'attempt.running -> attempt.stopping (xstate.after.OPERATION_DEADLINE.retry.attempt.running)',
      'attempt.stopping -> closed (ATTEMPT_FAILED)',
    ]);
    // The abandoned second call was cancelled on the wire before the run ended.
    const cancelled = server.requests.filter(
      (request) => request.rpc?.method === 'notifications/cancelled',
    );
    expect(cancelled.map((request) => request.rpc?.params?.requestId)).toEqual([2]);
  });

  it("the caller's abort during a wait ends the call at once with its exact reason", async () => {
    const server = await start(
      mcpHandler(
        { 'tools/call': reply.status(503, 'busy', { 'retry-after': '20' }) },
        { tools: markedEcho({ readOnlyHint: true }) },
      ),
    );
    const controller = new AbortController();
    const reason = new Error('the user left');
    const echo = await mountEcho(server, {
      retry: { attempts: 3 },
      timeoutMs: 30_000,
      observe: (record) => {
        if (record.machine === 'retry' && record.to === 'backingOff') controller.abort(reason);
      },
    });
    const started = performance.now();
    const result = await runTool(
      echo,
      { message: 'x' },
      { source: 'agent', signal: controller.signal },
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(server.count((request) => request.rpc?.method === 'tools/call')).toBe(1);
  });
});

describe('an OpenAPI call with retry: { attempts: 3 }', () => {
  const servers: Server[] = [];
  const closeAll = () =>
    Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));

  /** A service on `port` (0: any) that answers each request with `answer(n)`, n counting from 1. */
  async function service(
    answer: (n: number, method: string) => { status: number; headers?: Record<string, string> },
    port = 0,
  ) {
    const seen: string[] = [];
    const server = createServer(async (request, response) => {
      await readBodyText(request);
      seen.push(`${request.method} ${request.url}`);
      const { status, headers } = answer(seen.length, request.method ?? '');
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(status < 300 ? '{"pets":[]}' : '{"error":"later"}');
    });
    servers.push(server);
    const origin = await listenOnLoopback(server, port);
    return { origin, seen };
  }

  async function mountPets(origin: string, observe?: (record: TransitionRecord) => void) {
    const tools = await mountConnections([
      defineOpenApiConnection({
        name: 'pets',
        spec: petsDocument(origin),
        retry: { attempts: 3 },
        ...(observe === undefined ? {} : { observe }),
      }),
    ]);
    const byName = (name: string) => tools.find((tool) => tool.name === name);
    return { list: byName('pets__listPets'), add: byName('pets__addPet') };
  }

  it('a GET answered 429 with an HTTP-date Retry-After waits until that date, then succeeds', async () => {
    try {
      const { origin, seen } = await service((n) =>
        n === 1
          ? { status: 429, headers: { 'retry-after': new Date(Date.now() + 2_000).toUTCString() } }
          : { status: 200 },
      );
      const trace = retryTrace();
      const { list } = await mountPets(origin, trace.observe);
      const result = await runTool(list as never, {}, { source: 'agent' });
      expect(result).toEqual({ ok: true, data: { pets: [] } });
      expect(seen).toEqual(['GET /pets', 'GET /pets']);
      expect(trace.steps()).toEqual(ONE_RETRY);
      // An HTTP date has whole seconds: the wait is what was left of the 2 s, at least about 1 s.
      const [waited] = trace.waits();
      expect(waited).toBeGreaterThan(900);
      expect(waited).toBeLessThan(2_100);
    } finally {
      await closeAll();
    }
  });

  it('a POST answered 429 is not sent again', async () => {
    try {
      const { origin, seen } = await service(() => ({
        status: 429,
        headers: { 'retry-after': '0' },
      }));
      const { add } = await mountPets(origin);
      const result = await runTool(add as never, {}, { source: 'agent' });
      expect(toolCauseFromResult(result)).toMatchObject({ status: 429, retryAfterMs: 0 });
      expect(seen).toEqual(['POST /pets']);
    } finally {
      await closeAll();
    }
  });

  it('a POST whose connection was refused (never received) is sent again once the service is up', async () => {
    try {
      // A port nothing listens on yet; the service starts there while the policy waits.
      const probe = createServer();
      const origin = await listenOnLoopback(probe);
      await new Promise((resolve) => probe.close(resolve));
      const port = Number(new URL(origin).port);
      let up: Promise<{ seen: string[] }> | undefined;
      const records: string[] = [];
      const { add } = await mountPets(origin, (record) => {
        if (record.machine !== 'retry') return;
        records.push(`${record.from} -> ${record.to}`);
        if (record.to === 'backingOff' && up === undefined)
          up = service(() => ({ status: 200 }), port);
      });
      const result = await runTool(add as never, {}, { source: 'agent' });
      expect(result).toEqual({ ok: true, data: { pets: [] } });
      expect((await up)?.seen).toEqual(['POST /pets']);
      expect(records).toEqual([
        ' -> attempt.running',
        'attempt.running -> backingOff',
        'backingOff -> attempt.running',
        'attempt.running -> closed',
      ]);
    } finally {
      await closeAll();
    }
  });

  it('without a policy nothing is tried again: a refused GET fails typed at once', async () => {
    const probe = createServer();
    const origin = await listenOnLoopback(probe);
    await new Promise((resolve) => probe.close(resolve));
    const machines: string[] = [];
    const [list] = await mountConnections([
      defineOpenApiConnection({
        name: 'pets',
        spec: petsDocument(origin),
        observe: (record) => machines.push(record.machine),
      }),
    ]);
    const result = await runTool(list as never, {}, { source: 'agent' });
    expect(ConnectionNetworkError.isInstance(toolCauseFromResult(result))).toBe(true);
    expect(toolCauseFromResult(result)).toMatchObject({ failure: 'refused' });
    expect(machines).toEqual(['openApiCall', 'openApiCall']);
  });
});

describe('retry.attempts is checked at definition', () => {
  it.each([[0], [11], [1.5], ['3']])('refuses %j', (attempts) => {
    expect(() =>
      defineOpenApiConnection({
        name: 'pets',
        spec: petsDocument('http://127.0.0.1:1'),
        retry: { attempts: attempts as number },
      }),
    ).toThrow(
      `OpenAPI connection "pets": retry.attempts must be an integer from 1 to 10 (the first attempt included); got ${
        typeof attempts === 'number' ? attempts : 'string'
      }`,
    );
  });
});

/** A service with a GET (repeatable) and a POST (not) on one path. */
function petsDocument(origin: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'pets', version: '1' },
    servers: [{ url: origin }],
    paths: {
      '/pets': {
        get: { operationId: 'listPets', responses: { 200: { description: 'ok' } } },
        post: { operationId: 'addPet', responses: { 200: { description: 'ok' } } },
      },
    },
  };
}
