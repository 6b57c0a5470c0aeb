/**
 * `mcpOperation` run from its start on stand-in exchanges that answer at once with fixed results
 * (the real credential actor, the host's token provider): what its input becomes on the wire (the
 * principal given to the token provider, the token on every request, the log level asked of a
 * stateless server), where a probing run goes when the stateless POST is answered as a 2025
 * server answers, and the secrets teardown wipes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, toPromise } from 'xstate';
import { toolCallerOf } from '../../../src/binding/contract/caller.js';
import { makeResolveCredentials } from '../../../src/machines/credentials.js';
import type { ExchangeInput } from '../../../src/machines/mcp-operation/mcp-operation.actors.js';
import { mcpOperationMachine } from '../../../src/machines/mcp-operation/mcp-operation.machine.js';
import {
  type AnswerInputInput,
  answerInputRequests,
} from '../../../src/machines/mcp-operation/mcp-operation.server-requests.js';
import type {
  McpOperationEvent,
  McpOperationInput,
  RpcExchange,
} from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import {
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  createHostFence,
  META,
  SESSION_REVISIONS,
  STATELESS_LOG_LEVEL,
} from '../../../src/wire/index.js';

const URL_ = 'http://127.0.0.1:7000/mcp';
const baseInput: McpOperationInput = {
  connectionName: 'run',
  url: URL_,
  fence: createHostFence('run', new URL(URL_)),
  headers: {},
  request: { method: 'tools/call', params: { name: 'echo', arguments: {} } },
  limits: {
    handshake: { timeoutMs: 10_000, maxResponseBytes: 10_000 },
    request: { timeoutMs: 10_000, maxResponseBytes: 10_000 },
  },
};

const CALL_RESULT = { content: [{ type: 'text', text: 'hi' }] };
const INITIALIZED = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  serverInfo: { name: 's', version: '1' },
};
const response = (value: unknown, sessionId?: string): RpcExchange => ({
  kind: 'response',
  value,
  sessionId: sessionId === undefined ? undefined : new SecretValue(sessionId),
});

/** What one exchange was given: its invoke id, its message, and the token it would send. */
interface Sent {
  readonly id: string;
  readonly message: unknown;
  readonly token: string | undefined;
}

/** An exchange's answer, or what the server does first (report bytes, progress) before it. */
type Answer = RpcExchange | ((exchange: ExchangeInput) => Promise<RpcExchange>);

/** Runs the machine to its end; each exchange id takes the next of its answers. */
async function run(
  input: McpOperationInput,
  answers: Record<string, Answer[]>,
  resolveToken: (principal: unknown) => string | undefined = () => undefined,
  legacyEvents: readonly McpOperationEvent[] = [],
) {
  const sent: Sent[] = [];
  const progress: unknown[] = [];
  const machine = mcpOperationMachine.provide({
    actors: {
      resolveCredentials: makeResolveCredentials(resolveToken),
      exchange: fromPromise<RpcExchange, ExchangeInput>(async ({ input: exchange, self }) => {
        sent.push({
          id: self.id,
          message: exchange.message,
          token: exchange.base.headers.token?.reveal(),
        });
        const next = answers[self.id]?.shift();
        if (next === undefined) throw new Error(`no answer for ${self.id}`);
        return typeof next === 'function' ? next(exchange) : next;
      }),
      // The real answering of an input round, with the call's caller.
      answerInputRequests: fromPromise<Readonly<Record<string, unknown>>, AnswerInputInput>(
        ({ input: round, signal }) => answerInputRequests(round, signal),
      ),
      deleteSession: fromPromise(async () => undefined),
      // The legacy GET stream sends what the test gives it, once it opens.
      legacyStream: fromCallback(({ sendBack }) => {
        for (const event of legacyEvents) sendBack(event);
        return () => {};
      }),
      callerStream: fromCallback(() => () => {}),
    },
  } as never);
  const actor = createActor(machine, { input });
  actor.on('progress', (event) => void progress.push(event));
  actor.start();
  const outcome = await toPromise(actor);
  return { outcome, sent, progress, context: actor.getSnapshot().context };
}

/** Never settles: the exchange stays open while the test drives the run. */
const pending = () => new Promise<RpcExchange>(() => undefined);

describe('mcpOperation probing (auto)', () => {
  it('speaks 2025-11-25 when the stateless POST is answered 404 without a 2026 error', async () => {
    const { outcome, sent } = await run(
      { ...baseInput, protocolVersion: 'auto' },
      {
        postStatelessRequest: [{ kind: 'http-error', status: 404, body: '' }],
        postInitialize: [response(INITIALIZED)],
        postInitialized: [{ kind: 'accepted', status: 202 }],
        postRequest: [response(CALL_RESULT)],
      },
    );
    expect(sent.map(({ id }) => id)).toEqual([
      'postStatelessRequest',
      'postInitialize',
      'postInitialized',
      'postRequest',
    ]);
    expect(outcome).toMatchObject({ ok: true, result: CALL_RESULT, protocolVersion: '2025-11-25' });
  });
});

describe('mcpOperation credentials', () => {
  it("gives the token provider the call's principal, and sends its token on every request", async () => {
    const principals: unknown[] = [];
    const { outcome, sent } = await run(
      { ...baseInput, protocolVersion: '2025-11-25', principal: { user: 'u-1' } },
      {
        postInitialize: [response(INITIALIZED)],
        postInitialized: [{ kind: 'accepted', status: 202 }],
        postRequest: [response(CALL_RESULT)],
      },
      (principal) => {
        principals.push(principal);
        return 'tok-1';
      },
    );
    expect(outcome).toMatchObject({ ok: true });
    expect(principals).toEqual([{ user: 'u-1' }]);
    expect(sent.map(({ id, token }) => [id, token])).toEqual([
      ['postInitialize', 'tok-1'],
      ['postInitialized', 'tok-1'],
      ['postRequest', 'tok-1'],
    ]);
  });
});

describe('mcpOperation on the stateless wire', () => {
  const logLevelOf = (sent: readonly Sent[]) =>
    sent.map(
      ({ message }) =>
        (message as { params: { _meta: Record<string, unknown> } }).params._meta[META.logLevel],
    );
  const answers = () => ({
    postStatelessRequest: [response({ resultType: 'complete', ...CALL_RESULT })],
  });

  it('asks the server for logs only for a caller that takes them', async () => {
    const signal = new AbortController().signal;
    const reading = await run(
      {
        ...baseInput,
        protocolVersion: '2026-07-28',
        relay: toolCallerOf({ capabilities: {}, log: () => undefined }, signal),
      },
      answers(),
    );
    expect(logLevelOf(reading.sent)).toEqual([STATELESS_LOG_LEVEL]);
    const deaf = await run(
      {
        ...baseInput,
        protocolVersion: '2026-07-28',
        relay: toolCallerOf({ capabilities: {}, defersInput: true }, signal),
      },
      answers(),
    );
    expect(logLevelOf(deaf.sent)).toEqual([undefined]);
    expect(deaf.outcome).toMatchObject({ ok: true, protocolVersion: '2026-07-28' });
  });
});

describe('mcpOperation teardown', () => {
  it('wipes the token, the session id, the principal and the caller relay at the end', async () => {
    const { outcome, context } = await run(
      {
        ...baseInput,
        protocolVersion: '2025-11-25',
        principal: 'p-1',
        relay: toolCallerOf(
          { capabilities: {}, log: () => undefined },
          new AbortController().signal,
        ),
      },
      {
        postInitialize: [response(INITIALIZED, 'session-1')],
        postInitialized: [{ kind: 'accepted', status: 202 }],
        postRequest: [response(CALL_RESULT)],
      },
      () => 'tok-1',
    );
    expect(outcome).toMatchObject({ ok: true });
    const held = [context.token, context.sessionId, context.principal, context.relay];
    expect(held.map((secret) => secret?.wiped)).toEqual([true, true, true, true]);
  });
});

describe('mcpOperation on the stateless wire, what it reads', () => {
  const stateless = { ...baseInput, protocolVersion: '2026-07-28' } as const;
  const refusal = (rpcError: { code: number; message: string; data?: unknown }): RpcExchange => ({
    kind: 'http-error',
    status: 400,
    body: '',
    rpcError,
  });
  const idsOf = (sent: readonly Sent[]) =>
    sent.map(({ message }) => (message as { id: number }).id);

  it('names the versions of both sides when none is shared', async () => {
    const pinned = await run(stateless, {
      postStatelessRequest: [
        refusal({ code: -32022, message: 'no', data: { supported: ['2099-01-01', '2099-02-01'] } }),
      ],
    });
    const error = pinned.outcome.ok ? undefined : pinned.outcome.error;
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect((error as Error).message).toContain(
      'supports none of the MCP protocol versions this client speaks (server: 2099-01-01, 2099-02-01; client: 2026-07-28)',
    );
    const probing = await run(
      { ...baseInput, protocolVersion: 'auto' },
      { postStatelessRequest: [refusal({ code: -32022, message: 'no' })] },
    );
    expect(probing.outcome.ok ? undefined : (probing.outcome.error as Error).message).toContain(
      `(server: none named; client: ${['2026-07-28', ...SESSION_REVISIONS].join(', ')})`,
    );
  });

  it("keeps a refusal's data on the error, when it sent some", async () => {
    const withData = await run(stateless, {
      postStatelessRequest: [refusal({ code: -32000, message: 'bad', data: { why: 'x' } })],
    });
    expect(withData.outcome.ok ? undefined : withData.outcome.error).toMatchObject({
      rpcCode: -32000,
      rpcMessage: 'bad',
      rpcData: { why: 'x' },
    });
  });

  it('sends the corrective retry and the answered retry each under the next request id', async () => {
    const retried = await run(stateless, {
      postStatelessRequest: [
        refusal({ code: -32022, message: 'no', data: { supported: ['2026-07-28'] } }),
        response({ resultType: 'complete', ...CALL_RESULT }),
      ],
    });
    expect(idsOf(retried.sent)).toEqual([2, 3]);
    const answered = await run(
      {
        ...stateless,
        relay: toolCallerOf(
          {
            capabilities: { elicitation: {} },
            request: async () => ({ result: { action: 'accept' } }),
          },
          new AbortController().signal,
        ),
      },
      {
        postStatelessRequest: [
          {
            kind: 'response',
            value: undefined,
            sessionId: undefined,
            inputRequired: {
              inputRequests: { ok: { method: 'elicitation/create', params: { message: 'ok?' } } },
              requestState: 's-1',
            },
          },
          response({ resultType: 'complete', ...CALL_RESULT }),
        ],
      },
    );
    expect(idsOf(answered.sent)).toEqual([2, 3]);
    expect(answered.sent[1]?.message).toMatchObject({
      params: { inputResponses: { ok: { action: 'accept' } }, requestState: 's-1' },
    });
    expect(answered.outcome).toMatchObject({ ok: true, result: { resultType: 'complete' } });
  });

  it('counts every chunk against the byte ceiling, and names the bytes read when it is passed', async () => {
    const { outcome } = await run(
      {
        ...stateless,
        limits: { ...stateless.limits, request: { timeoutMs: 10_000, maxResponseBytes: 1_000 } },
      },
      {
        postStatelessRequest: [
          (exchange) => {
            exchange.reporter.send({ type: 'BYTES_READ', bytes: 600 });
            exchange.reporter.send({ type: 'BYTES_READ', bytes: 600 });
            return pending();
          },
        ],
      },
    );
    const error = outcome.ok ? undefined : outcome.error;
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({ observedReadBytes: 1_200, maxBytes: 1_000 });
  });

  it('relays progress as the server reported it, total and message only when it sent them', async () => {
    const { progress } = await run(stateless, {
      postStatelessRequest: [
        async (exchange) => {
          exchange.reporter.send({ type: 'PROGRESS', progress: 1 });
          exchange.reporter.send({ type: 'PROGRESS', progress: 2, total: 4, message: 'half' });
          return response({ resultType: 'complete', ...CALL_RESULT });
        },
      ],
    });
    expect(progress).toStrictEqual([
      { type: 'progress', progress: 1 },
      { type: 'progress', progress: 2, total: 4, message: 'half' },
    ]);
  });
});

describe('mcpOperation on the 2025 wires, what it reads', () => {
  const session = { ...baseInput, protocolVersion: '2025-11-25' } as const;

  it('resumes a broken SSE answer three times, then ends typed', async () => {
    const broken: RpcExchange = { kind: 'interrupted', lastEventId: 'e-1', retryMs: 0 };
    const { outcome, sent } = await run(session, {
      postInitialize: [response(INITIALIZED)],
      postInitialized: [{ kind: 'accepted', status: 202 }],
      postRequest: [broken],
      resumeRequest: [broken, broken, broken, broken],
    });
    expect(sent.map(({ id }) => id)).toEqual([
      'postInitialize',
      'postInitialized',
      'postRequest',
      'resumeRequest',
      'resumeRequest',
      'resumeRequest',
    ]);
    expect(outcome.ok ? undefined : outcome.error).toBeInstanceOf(ConnectionProtocolError);
  });

  it('refuses a legacy endpoint off the fence, naming the status that sent it to legacy SSE', async () => {
    const { outcome, sent } = await run(
      session,
      { postInitialize: [{ kind: 'http-error', status: 404, body: '' }] },
      undefined,
      [{ type: 'SSE_ENDPOINT', url: 'http://elsewhere.example/messages', bytes: 40 }],
    );
    expect(sent.map(({ id }) => id)).toEqual(['postInitialize']);
    const error = outcome.ok ? undefined : outcome.error;
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect((error as Error).message).toContain('refused an SSE endpoint outside its host fence');
    expect(error).toMatchObject({ fallbackStatus: 404 });
  });
});

describe('mcpOperation deadlines (fake timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts the run; `settled()` says whether it has ended by now. */
  function started(...args: Parameters<typeof run>) {
    let settled = false;
    const running = run(...args).then((result) => {
      settled = true;
      return result;
    });
    return { running, settled: () => settled };
  }

  it('re-opens a lost session inside the request window, never past it', async () => {
    vi.useFakeTimers({ now: 0 });
    const limits = {
      handshake: { timeoutMs: 10_000, maxResponseBytes: 10_000 },
      request: { timeoutMs: 1_000, maxResponseBytes: 10_000 },
    };
    const call = started(
      { ...baseInput, protocolVersion: '2025-11-25', limits },
      {
        postInitialize: [response(INITIALIZED, 'session-1')],
        postInitialized: [{ kind: 'accepted', status: 202 }],
        postRequest: [{ kind: 'http-error', status: 404, body: '' }],
        postReinitialize: [pending],
      },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(call.settled()).toBe(true);
    const { outcome, sent } = await call.running;
    expect(sent.map(({ id }) => id)).toEqual([
      'postInitialize',
      'postInitialized',
      'postRequest',
      'postReinitialize',
    ]);
    expect(outcome.ok ? undefined : outcome.error).toBeInstanceOf(ConnectionTimeoutError);
  });

  it('restarts the request window on progress when the phase sets a total cap', async () => {
    vi.useFakeTimers({ now: 0 });
    const limits = {
      handshake: { timeoutMs: 10_000, maxResponseBytes: 10_000 },
      request: { timeoutMs: 1_000, maxResponseBytes: 10_000, maxTotalTimeoutMs: 5_000 },
    };
    let reporter: ExchangeInput['reporter'] | undefined;
    const call = started(
      { ...baseInput, protocolVersion: '2026-07-28', limits },
      {
        postStatelessRequest: [
          (exchange) => {
            reporter = exchange.reporter;
            return pending();
          },
        ],
      },
    );
    await vi.advanceTimersByTimeAsync(800);
    reporter?.send({ type: 'PROGRESS', progress: 1 });
    await vi.advanceTimersByTimeAsync(900);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(call.settled()).toBe(true);
    const { outcome } = await call.running;
    expect(outcome.ok ? undefined : outcome.error).toBeInstanceOf(ConnectionTimeoutError);
  });
});
