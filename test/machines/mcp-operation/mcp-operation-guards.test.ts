/**
 * The guards of `mcpOperation`, one table per guard: each is a total predicate over the params the
 * chart maps, so its verdict is checked here row by row, without the chart around it.
 */
import { describe, expect, it } from 'vitest';
import {
  mcpOperationGuards as guards,
  type InputRoundParams,
  type TaskHandBackParams,
} from '../../../src/machines/mcp-operation/mcp-operation.guards.js';
import { MAX_STREAM_RESUMPTIONS } from '../../../src/machines/mcp-operation/mcp-operation.policy.js';
import type { RpcExchange } from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import {
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
  createHostFence,
} from '../../../src/wire/index.js';

const refused = (status: number): RpcExchange => ({ kind: 'http-error', status, body: '' });
const response: RpcExchange = { kind: 'response', value: {}, sessionId: undefined };
const accepted: RpcExchange = { kind: 'accepted', status: 202 };
const interrupted: RpcExchange = { kind: 'interrupted', lastEventId: 'e1', retryMs: undefined };
const endedWithoutId: RpcExchange = { kind: 'interrupted', lastEventId: undefined, retryMs: 10 };

/** Every exchange kind, so each guard is seen to refuse all the others. */
const EXCHANGES: readonly (readonly [string, RpcExchange])[] = [
  ['400', refused(400)],
  ['401', refused(401)],
  ['403', refused(403)],
  ['404', refused(404)],
  ['405', refused(405)],
  ['500', refused(500)],
  ['a response', response],
  ['accepted', accepted],
  ['interrupted after an id', interrupted],
  ['ended without an id', endedWithoutId],
];

function verdicts(guard: (_: unknown, params: { exchange: RpcExchange }) => boolean): string[] {
  return EXCHANGES.filter(([, exchange]) => guard(undefined, { exchange })).map(([label]) => label);
}

describe('exchange guards', () => {
  it.each([
    ['isUnauthorized', guards.isUnauthorized, ['401']],
    ['isHttpError', guards.isHttpError, ['400', '401', '403', '404', '405', '500']],
    ['isResponse', guards.isResponse, ['a response']],
  ] as const)('%s holds for exactly %j', (_name, guard, expected) => {
    expect(verdicts(guard)).toEqual(expected);
  });

  it.each([
    ['auto', ['400', '404', '405']],
    ['streamable-http', []],
    ['sse', []],
  ] as const)(
    'isFallbackStatus with transport %s holds for exactly %j',
    (transportType, expected) => {
      expect(
        verdicts((_, params) => guards.isFallbackStatus(undefined, { ...params, transportType })),
      ).toEqual(expected);
    },
  );
});

describe('resolvesToken', () => {
  it.each([true, false])('is %s exactly when the connection has a token provider', (has) => {
    expect(guards.resolvesToken(undefined, { resolvesToken: has })).toBe(has);
  });
});

describe('isSseOnly', () => {
  it.each([
    ['auto', false],
    ['streamable-http', false],
    ['sse', true],
  ] as const)('%s -> %s', (transportType, expected) => {
    expect(guards.isSseOnly(undefined, { transportType })).toBe(expected);
  });
});

describe('canResume', () => {
  it.each([
    ['an interruption after an id, no resumption yet', interrupted, 0, true],
    [
      'an interruption after an id, one resumption left',
      interrupted,
      MAX_STREAM_RESUMPTIONS - 1,
      true,
    ],
    ['an interruption after an id, bound reached', interrupted, MAX_STREAM_RESUMPTIONS, false],
    ['an interruption without an id', endedWithoutId, 0, false],
    ['a response', response, 0, false],
    ['a refusal', refused(500), 0, false],
  ] as const)('%s -> %s', (_label, exchange, resumeAttempts, expected) => {
    expect(guards.canResume(undefined, { exchange, resumeAttempts })).toBe(expected);
  });
});

describe('hasNextPage and hasCursorAtPageLimit', () => {
  it.each([
    ['a last page', undefined, 0, 50, false, false],
    ['a cursor on the first of 50 pages', 'c', 0, 50, true, false],
    ['a cursor on page 49 of 50', 'c', 48, 50, true, false],
    ['a cursor on the 50th page of 50', 'c', 49, 50, false, true],
    ['a cursor with a one-page limit', 'c', 0, 1, false, true],
    ['no cursor at the limit', undefined, 49, 50, false, false],
  ] as const)(
    '%s: next %s, at limit %s',
    (_label, nextCursor, page, maxListPages, next, atLimit) => {
      const params = { nextCursor, page, maxListPages };
      expect(guards.hasNextPage(undefined, params)).toBe(next);
      expect(guards.hasCursorAtPageLimit(undefined, params)).toBe(atLimit);
    },
  );
});

describe('isSizeFailure', () => {
  it.each([
    [
      'a size error',
      new ConnectionResponseTooLargeError({ connectionName: 'c', maxBytes: 1 }),
      true,
    ],
    [
      'a protocol error',
      new ConnectionProtocolError({ connectionName: 'c', violation: 'x' }),
      false,
    ],
    ['a plain error', new Error('network'), false],
    ['a non-error', 'reset', false],
  ])('%s -> %s', (_label, error, expected) => {
    expect(guards.isSizeFailure(undefined, { error })).toBe(expected);
  });
});

describe('exceedsReadBudget', () => {
  it.each([
    [0, 1_000, 1_000, false],
    [999, 1, 1_000, false],
    [999, 2, 1_000, true],
    [0, 1_001, 1_000, true],
  ])('%i read + %i new against %i -> %s', (readBytes, bytes, maxBytes, expected) => {
    expect(guards.exceedsReadBudget(undefined, { readBytes, bytes, maxBytes })).toBe(expected);
  });
});

describe('isFencedEndpoint', () => {
  const fence = createHostFence('c', new URL('http://127.0.0.1:7000/mcp'), ['other.test']);

  it.each([
    ['the connection host', 'http://127.0.0.1:7000/messages?sessionId=1', true],
    ['an allowed host', 'https://other.test/messages', true],
    ['another port', 'http://127.0.0.1:7001/messages', false],
    ['another host', 'http://evil.test/messages', false],
    ['no endpoint yet', undefined, false],
    ['text that is not a URL', 'not a url', false],
  ])('%s -> %s', (_label, endpoint, expected) => {
    expect(guards.isFencedEndpoint(undefined, { endpoint, fence })).toBe(expected);
  });
});

describe('isAcceptedResponse and isEarlyResponse', () => {
  const RESULT = { jsonrpc: '2.0', id: 2, result: {} };
  const held = { ok: true, value: {} } as const;
  it.each([
    ['the awaited result', RESULT, true],
    ['the awaited error', { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } }, true],
    ['an answer to another id', { jsonrpc: '2.0', id: 3, result: {} }, false],
    ['a server request with the same id', { jsonrpc: '2.0', id: 2, method: 'ping' }, false],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/message' }, false],
    ['not JSON-RPC', 'hello', false],
  ])('%s: the pending response -> %s', (_label, message, expected) => {
    const step = { message, pendingId: 2, answer: undefined };
    expect(guards.isAcceptedResponse(undefined, { ...step, accepted: true })).toBe(expected);
    expect(guards.isEarlyResponse(undefined, { ...step, accepted: false })).toBe(expected);
  });

  it.each([
    ['before the POST was accepted', false, undefined, false, true],
    ['after the POST was accepted', true, undefined, true, false],
    ['again, before the POST was accepted', false, held, false, false],
  ] as const)(
    'the pending result %s: accepted %s, early %s',
    (_label, accepted, answer, ...verdicts) => {
      const step = { message: RESULT, pendingId: 2, accepted, answer };
      expect([
        guards.isAcceptedResponse(undefined, step),
        guards.isEarlyResponse(undefined, step),
      ]).toEqual(verdicts);
    },
  );
});

describe('isAnswered, holdsLegacyAnswer and hasSession', () => {
  it.each([
    ['a decoded value', { ok: true, value: {} }, true, true],
    ['a decoding failure', { ok: false, error: new Error('bad') }, false, true],
    ['nothing yet', undefined, false, false],
  ] as const)('%s: answered %s, held %s', (_label, answer, answered, held) => {
    expect(guards.isAnswered(undefined, { answer })).toBe(answered);
    expect(guards.holdsLegacyAnswer(undefined, { answer })).toBe(held);
  });

  it.each([
    ['a session id', new SecretValue('s-1'), true],
    ['none', undefined, false],
  ])('hasSession: %s -> %s', (_label, sessionId, expected) => {
    expect(guards.hasSession(undefined, { sessionId })).toBe(expected);
  });
});

describe('relaysToCaller', () => {
  it.each([
    [{}, false],
    [{ sampling: {} }, true],
    [{ elicitation: { form: {} } }, true],
    [{ roots: {} }, true],
  ])('capabilities %j: %s', (capabilities, expected) => {
    expect(guards.relaysToCaller(undefined, { capabilities })).toBe(expected);
  });
});

describe('listensForSessionProgress', () => {
  it.each([
    ['a token in a session', 2, new SecretValue('s-1'), true],
    ['a string token in a session', 'p-1', new SecretValue('s-1'), true],
    ['a token, stateless', 2, undefined, false],
    ['no token in a session', undefined, new SecretValue('s-1'), false],
    ['neither', undefined, undefined, false],
  ] as const)('%s -> %s', (_label, progressToken, sessionId, expected) => {
    expect(guards.listensForSessionProgress(undefined, { progressToken, sessionId })).toBe(
      expected,
    );
  });
});

describe('isLostSession', () => {
  const session = new SecretValue('s-1');
  it('holds for exactly a 404 to a request that carried a session id, before any re-open', () => {
    expect(
      verdicts((_, { exchange }) =>
        guards.isLostSession(undefined, {
          exchange,
          sessionId: session,
          reopened: false,
        }),
      ),
    ).toEqual(['404']);
  });

  it.each([
    ['no session id was sent', undefined, false],
    ['the run re-opened its session already', session, true],
    ['both', undefined, true],
  ] as const)('holds for nothing when %s', (_label, sessionId, reopened) => {
    expect(
      verdicts((_, { exchange }) =>
        guards.isLostSession(undefined, { exchange, sessionId, reopened }),
      ),
    ).toEqual([]);
  });
});

describe('the stateless wire guards (MCP 2026-07-28)', () => {
  const unsupported = (supported: unknown): RpcExchange => ({
    kind: 'http-error',
    status: 400,
    body: '',
    rpcError: { code: -32022, message: 'no', data: { supported } },
  });
  const statelessRefusal = (code: number): RpcExchange => ({
    kind: 'http-error',
    status: 400,
    body: '',
    rpcError: { code, message: 'no' },
  });
  const otherRefusal: RpcExchange = {
    kind: 'http-error',
    status: 400,
    body: '',
    rpcError: { code: -32000, message: 'Bad Request' },
  };

  it.each([
    ['auto', 'auto', true],
    ['auto', 'streamable-http', true],
    ['auto', 'sse', false],
    ['2026-07-28', 'auto', true],
    ['2025-11-25', 'auto', false],
  ] as const)('startsStateless for %s over %s is %s', (protocolChoice, transportType, expected) => {
    expect(guards.startsStateless(undefined, { protocolChoice, transportType })).toBe(expected);
  });

  it.each([
    ['-32022 naming 2026-07-28', unsupported(['2026-07-28']), true, true],
    ['-32022 naming 2026-07-28, the run may not move', unsupported(['2026-07-28']), false, false],
    ['-32022 naming another revision', unsupported(['2099-01-01']), true, false],
    ['-32022 naming none', unsupported(undefined), true, false],
    ['another JSON-RPC refusal', otherRefusal, true, false],
    ['a plain 400', refused(400), true, false],
    ['a response', response, true, false],
  ] as const)('offersStatelessRevision: %s -> %s', (_label, exchange, maySwitch, expected) => {
    expect(guards.offersStatelessRevision(undefined, { exchange, maySwitch })).toBe(expected);
  });

  it.each([
    ['a plain 400', refused(400), true, true],
    ['a plain 404', refused(404), true, true],
    ['a plain 405', refused(405), true, true],
    ['the 2025 SDK refusal (400, -32000)', otherRefusal, true, true],
    ['a plain 400, the run may not move', refused(400), false, false],
    ['a 401', refused(401), true, false],
    ['a 500', refused(500), true, false],
    ['-32022', unsupported(['2025-11-25']), true, false],
    ['-32020 (header mismatch)', statelessRefusal(-32020), true, false],
    ['-32021 (missing capability)', statelessRefusal(-32021), true, false],
    ['a response', response, true, false],
  ] as const)('isSessionServer: %s -> %s', (_label, exchange, maySwitch, expected) => {
    expect(guards.isSessionServer(undefined, { exchange, maySwitch })).toBe(expected);
  });

  it.each([
    ['-32022 naming 2025-11-25', unsupported(['2025-11-25']), true, true],
    [
      '-32022 naming 2025-06-18 among others',
      unsupported(['2099-01-01', '2025-06-18']),
      true,
      true,
    ],
    ['-32022 naming 2025-11-25, the run may not move', unsupported(['2025-11-25']), false, false],
    ['-32022 naming 2026-07-28 only', unsupported(['2026-07-28']), true, false],
  ] as const)('offersSessionRevision: %s -> %s', (_label, exchange, maySwitch, expected) => {
    expect(guards.offersSessionRevision(undefined, { exchange, maySwitch })).toBe(expected);
  });

  it.each([
    ['-32022', unsupported(['2026-07-28']), true, true],
    ['another JSON-RPC refusal', otherRefusal, false, true],
    ['a plain 400', refused(400), false, false],
    ['a response', response, false, false],
  ] as const)('%s: isUnsupportedVersion %s, isRpcRefusal %s', (_label, exchange, version, rpc) => {
    expect([
      guards.isUnsupportedVersion(undefined, { exchange }),
      guards.isRpcRefusal(undefined, { exchange }),
    ]).toEqual([version, rpc]);
  });
});

describe('isUntypedAnswer', () => {
  const untyped: RpcExchange = { ...response, untyped: true } as RpcExchange;
  it.each([
    ['a stateless answer without resultType, while probing', untyped, true, true],
    [
      'the same, for a run that holds a revision (complete, as the specification says)',
      untyped,
      false,
      false,
    ],
    ['a typed answer', response, true, false],
    ['a refusal', refused(400), true, false],
  ] as const)('%s -> %s', (_label, exchange, probing, expected) => {
    expect(guards.isUntypedAnswer(undefined, { exchange, probing })).toBe(expected);
  });
});

describe('offersStatelessRetry', () => {
  const unsupported = (supported: unknown): RpcExchange => ({
    kind: 'http-error',
    status: 400,
    body: '',
    rpcError: { code: -32022, message: 'no', data: { supported } },
  });
  it.each([
    ['-32022 naming 2026-07-28, no retry yet', unsupported(['2026-07-28']), false, true],
    ['the same, after a retry or a move', unsupported(['2026-07-28']), true, false],
    ['-32022 naming only 2025 revisions', unsupported(['2025-11-25']), false, false],
    ['a plain 400', refused(400), false, false],
  ] as const)('%s -> %s', (_label, exchange, switched, expected) => {
    expect(guards.offersStatelessRetry(undefined, { exchange, switched })).toBe(expected);
  });
});

describe('the input_required guards', () => {
  const asks: RpcExchange = {
    kind: 'response',
    value: undefined,
    sessionId: undefined,
    inputRequired: { inputRequests: {} },
  };
  const rows = [
    ['asks, round 0 of 10', asks, 0, false],
    ['asks, round 9 of 10', asks, 9, false],
    ['asks, round 10 of 10', asks, 10, false],
    ['asks a deferring caller, round 0 of 10', asks, 0, true],
    ['asks a deferring caller, round 10 of 10', asks, 10, true],
    ['a complete answer', response, 0, false],
    ['a complete answer for a deferring caller', response, 0, true],
    ['a 400', refused(400), 0, true],
  ] as const;
  const holding = (guard: (_: unknown, params: InputRoundParams) => boolean) =>
    rows
      .filter(([, exchange, round, defers]) =>
        guard(undefined, { exchange, round, maxRounds: 10, defers }),
      )
      .map(([label]) => label);

  it.each([
    [
      'asksForInput',
      guards.asksForInput,
      ['asks, round 0 of 10', 'asks, round 9 of 10', 'asks a deferring caller, round 0 of 10'],
    ],
    [
      'asksForInputPastLimit',
      guards.asksForInputPastLimit,
      ['asks, round 10 of 10', 'asks a deferring caller, round 10 of 10'],
    ],
    [
      'asksForDeferredInput',
      guards.asksForDeferredInput,
      ['asks a deferring caller, round 0 of 10', 'asks a deferring caller, round 10 of 10'],
    ],
  ] as const)('%s holds for exactly %j', (_name, guard, expected) => {
    expect(holding(guard)).toEqual(expected);
  });
});

describe('the task guards', () => {
  const created: RpcExchange = {
    kind: 'response',
    value: undefined,
    sessionId: undefined,
    task: {
      taskId: 't-1',
      status: 'working',
      createdAt: '2026-12-05T00:00:00Z',
      lastUpdatedAt: '2026-12-05T00:00:00Z',
      ttlMs: 60_000,
    },
  };
  const rows = [
    ['a task, for a caller that takes tasks', created, true],
    ['a task, for any other caller', created, false],
    ['a complete answer, for a caller that takes tasks', response, true],
    ['a complete answer', response, false],
    ['a 400, for a caller that takes tasks', refused(400), true],
  ] as const;
  const holding = (guard: (_: unknown, params: TaskHandBackParams) => boolean) =>
    rows
      .filter(([, exchange, handsBack]) => guard(undefined, { exchange, handsBack }))
      .map(([label]) => label);

  it.each([
    ['handsTaskBack', guards.handsTaskBack, ['a task, for a caller that takes tasks']],
    [
      'createsTask',
      guards.createsTask,
      ['a task, for a caller that takes tasks', 'a task, for any other caller'],
    ],
  ] as const)('%s holds for exactly %j', (_name, guard, expected) => {
    expect(holding(guard)).toEqual(expected);
  });
});

describe('resumesTask', () => {
  const rows = [
    ['a task id, 2026-07-28 over Streamable HTTP', 't-1', '2026-07-28', 'streamable-http'],
    ['a task id, auto', 't-1', 'auto', 'auto'],
    ['a task id, 2025-11-25', 't-1', '2025-11-25', 'auto'],
    ['a task id, legacy SSE', 't-1', '2026-07-28', 'sse'],
    ['no task id, 2026-07-28', undefined, '2026-07-28', 'streamable-http'],
  ] as const;

  it('holds only for a task id on a wire that may speak 2026-07-28', () => {
    const holding = rows
      .filter(([, taskId, protocolChoice, transportType]) =>
        guards.resumesTask(undefined, {
          ...(taskId === undefined ? {} : { taskId }),
          protocolChoice,
          transportType,
        }),
      )
      .map(([label]) => label);
    expect(holding).toEqual(['a task id, 2026-07-28 over Streamable HTTP', 'a task id, auto']);
  });
});
