/**
 * The policy of `mcpOperation` that reads what the server answers, one table per rule: which
 * stream message is the call's progress, what a decoded answer is on each wire, the run's result
 * and its paged listing, the request's window, the scope its errors name, and the state a retry
 * after `input_required` starts from.
 */
import { describe, expect, it } from 'vitest';
import {
  answeredState,
  decodeRpcResponse,
  mergeToolPages,
  progressOf,
  requestResult,
  requestWindowEnd,
  runScopeOf,
} from '../../../src/machines/mcp-operation/mcp-operation.policy.js';
import type { McpToolList } from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { ConnectionProtocolError } from '../../../src/wire/index.js';

const progress = (params: unknown) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params,
});

describe('progressOf', () => {
  it.each([
    ['a report for the token', progress({ progressToken: 7, progress: 1 }), { progress: 1 }],
    [
      'a report with a total and a message',
      progress({ progressToken: 7, progress: 2, total: 4, message: 'half' }),
      { progress: 2, total: 4, message: 'half' },
    ],
    [
      'a report whose total and message are not a number and a string',
      progress({ progressToken: 7, progress: 2, total: '4', message: 5 }),
      { progress: 2 },
    ],
    ['a report for another token', progress({ progressToken: 8, progress: 1 }), undefined],
    [
      'a report for the token as a string',
      progress({ progressToken: '7', progress: 1 }),
      undefined,
    ],
    [
      'a report without a numeric progress',
      progress({ progressToken: 7, progress: '1' }),
      undefined,
    ],
    ['a report without params', progress(undefined), undefined],
    ['a report whose params are null', progress(null), undefined],
    ['a report whose params are a string', progress('7'), undefined],
    [
      'a log message',
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { progressToken: 7, progress: 1 },
      },
      undefined,
    ],
    ['null', null, undefined],
    ['undefined', undefined, undefined],
    ['a string', 'notifications/progress', undefined],
  ])('%s is %j', (_label, message, expected) => {
    expect(progressOf(message, 7)).toEqual(expected);
  });

  it('is nothing for a call that carries no token, even for a report without one', () => {
    expect(progressOf(progress({ progress: 1 }), undefined)).toBeUndefined();
    expect(progressOf(progress({ progressToken: 7, progress: 1 }), undefined)).toBeUndefined();
  });
});

describe('decodeRpcResponse on the stateless wire (MCP 2026-07-28)', () => {
  const scope = { connectionName: 'c', operation: 'tools/call', phase: 'call' } as const;
  const answer = (result: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 2, result });

  it('returns the questions of an input_required result, and no value', () => {
    const inputRequests = { a: { method: 'elicitation/create', params: { message: 'ok?' } } };
    expect(
      decodeRpcResponse(
        answer({ resultType: 'input_required', inputRequests, requestState: 's1' }),
        2,
        scope,
        true,
      ),
    ).toEqual({ ok: true, value: undefined, inputRequired: { inputRequests, requestState: 's1' } });
  });

  it('marks a result without resultType as untyped, and only on the stateless wire', () => {
    expect(decodeRpcResponse(answer({ content: [] }), 2, scope, true)).toStrictEqual({
      ok: true,
      value: { content: [] },
      untyped: true,
    });
    expect(decodeRpcResponse(answer({ content: [] }), 2, scope)).toStrictEqual({
      ok: true,
      value: { content: [] },
    });
  });

  it('reads a complete result as typed', () => {
    const decoded = decodeRpcResponse(
      answer({ resultType: 'complete', content: [] }),
      2,
      scope,
      true,
    );
    expect(decoded).toMatchObject({ ok: true, value: { content: [] } });
    expect(decoded).not.toHaveProperty('untyped');
    expect(decoded).not.toHaveProperty('inputRequired');
  });

  it('reads an input_required result as a plain result on the 2025 wire', () => {
    const decoded = decodeRpcResponse(
      answer({ resultType: 'input_required', inputRequests: {}, content: [] }),
      2,
      scope,
    );
    expect(decoded).toMatchObject({ ok: true, value: { content: [] } });
    expect(decoded).not.toHaveProperty('inputRequired');
  });
});

describe('requestResult', () => {
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
  const list = (...names: string[]) => ({ tools: names.map(tool), rejected: [] }) as McpToolList;

  it('is the listing of every page, this one last, for tools/list', () => {
    expect(requestResult({ method: 'tools/list' }, list('a', 'b'), list('c'))).toEqual(
      list('a', 'b', 'c'),
    );
  });

  it('is the answer as decoded for tools/call, whatever pages were held', () => {
    const call = { method: 'tools/call', params: { name: 'echo', arguments: {} } } as const;
    const result = { content: [{ type: 'text', text: 'hi' }] };
    expect(requestResult(call, list('a'), result)).toBe(result);
  });
});

describe('mergeToolPages', () => {
  it('keeps a listing private when its first page is private and a later one public', () => {
    const merged = mergeToolPages(
      { tools: [], rejected: [], cache: { ttlMs: 300, cacheScope: 'private' } },
      { tools: [], rejected: [], cache: { ttlMs: 100, cacheScope: 'public' } },
    );
    expect(merged.cache).toEqual({ ttlMs: 100, cacheScope: 'private' });
  });
});

describe('requestWindowEnd', () => {
  it.each([
    ['no cap', { timeoutMs: 500 }, 1_400],
    ['a cap past the window', { timeoutMs: 500, maxTotalTimeoutMs: 5_000 }, 1_400],
    ['a cap inside the window', { timeoutMs: 500, maxTotalTimeoutMs: 1_000 }, 1_100],
  ])(
    'ends the window of a request started at 100, renewed at 900, with %s, at %d',
    (_l, limits, end) => {
      expect(requestWindowEnd(100, 900, limits)).toBe(end);
    },
  );
});

describe('runScopeOf', () => {
  const context = {
    connectionName: 'c',
    operation: 'tools/call',
    fallbackStatus: undefined,
  } as const;
  const failure = (scope: ReturnType<typeof runScopeOf>) =>
    new ConnectionProtocolError({ ...scope, violation: 'sent nonsense' });

  it("names the bytes read and the status that sent the run to legacy HTTP+SSE in the run's errors", () => {
    const error = failure(runScopeOf({ ...context, fallbackStatus: 405 }, 512));
    expect(error.observedReadBytes).toBe(512);
    expect(error.fallbackStatus).toBe(405);
    expect(error.message).toContain(
      'after its Streamable HTTP POST was answered 405, legacy HTTP+SSE was tried',
    );
    expect(error.phase).toBe('call');
  });

  it('names neither when the run read nothing counted and never fell back', () => {
    const error = failure(runScopeOf(context));
    expect(error.observedReadBytes).toBe(0);
    expect(error.fallbackStatus).toBeUndefined();
    expect(error.message).not.toContain('legacy HTTP+SSE');
  });
});

describe('answeredState', () => {
  it("starts a retry that brings answers from the server's state exactly as it was sent", () => {
    expect(answeredState({ inputResponses: { a: {} }, requestState: 'opaque-1' })).toEqual({
      inputRequests: {},
      requestState: 'opaque-1',
    });
    expect(answeredState({ inputResponses: { a: {} } })).toEqual({ inputRequests: {} });
    expect(answeredState(undefined)).toBeUndefined();
  });
});
