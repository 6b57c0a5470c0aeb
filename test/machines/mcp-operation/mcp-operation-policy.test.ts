/**
 * The pure policy of `mcpOperation`, one table per rule: the fallback statuses, the resume delay
 * clamp, the headers of an exchange, the request envelope and tools/list pages, and decoding.
 */
import { describe, expect, it } from 'vitest';
import {
  buildRequestHeaders,
  initializeMessage,
  requestEnvelope,
  requestMessage,
  requestProgressToken,
  statelessRequestMessage,
} from '../../../src/machines/mcp-operation/mcp-operation.messages.js';
import {
  DEFAULT_RESUME_DELAY_MS,
  decodeRpcResponse,
  isCancellableRequest,
  isSessionLostStatus,
  isSseFallbackStatus,
  MAX_RESUME_DELAY_MS,
  mergeToolPages,
  nextCursorOf,
  resumeDelayMs,
} from '../../../src/machines/mcp-operation/mcp-operation.policy.js';
import { SecretValue, secretHeaders } from '../../../src/machines/secret-value.js';
import { isUnauthorizedStatus } from '../../../src/wire/http/refusal.js';
import { ConnectionProtocolError } from '../../../src/wire/index.js';

describe('isSseFallbackStatus', () => {
  it('is true for 400, 404 and 405 and for no other status from 100 to 599', () => {
    const statuses = Array.from({ length: 500 }, (_, index) => index + 100);
    expect(statuses.filter(isSseFallbackStatus)).toEqual([400, 404, 405]);
  });
});

describe('isSessionLostStatus', () => {
  it('is true for 404 and for no other status from 100 to 599', () => {
    const statuses = Array.from({ length: 500 }, (_, index) => index + 100);
    expect(statuses.filter(isSessionLostStatus)).toEqual([404]);
  });
});

describe('requestProgressToken', () => {
  const call = { method: 'tools/call', params: { name: 'echo', arguments: {} } } as const;
  it.each([
    ['a call with a token', call, 7, 7],
    ['a call with a string token', call, 'p-1', 'p-1'],
    ['a call without one', call, undefined, undefined],
    ['a listing with a token', { method: 'tools/list' } as const, 7, undefined],
  ] as const)('%s -> %s', (_label, request, token, expected) => {
    expect(requestProgressToken(request, token)).toBe(expected);
  });

  it('is the token the request message carries', () => {
    expect(requestMessage(call, 2, undefined, 7).params).toEqual({
      name: 'echo',
      arguments: {},
      _meta: { progressToken: 7 },
    });
    expect(requestMessage({ method: 'tools/list' }, 2, undefined, 7).params).toEqual({});
  });
});

describe('isUnauthorizedStatus', () => {
  it('is true for 401 only (403 stays a refusal)', () => {
    const statuses = Array.from({ length: 500 }, (_, index) => index + 100);
    expect(statuses.filter(isUnauthorizedStatus)).toEqual([401]);
  });
});

describe('isCancellableRequest', () => {
  it("is true for the run's request while no answer is held, and never for the handshake", () => {
    const operations = ['initialize', 'notifications/initialized', 'tools/call', 'tools/list'];
    const rows = operations.flatMap((operation) =>
      [false, true].map((answered) => [
        operation,
        answered,
        isCancellableRequest(operation, answered),
      ]),
    );
    expect(rows.filter(([, , cancellable]) => cancellable)).toEqual([
      ['tools/call', false, true],
      ['tools/list', false, true],
    ]);
  });

  it('is never true on the stateless wire, where closing the request is the cancellation', () => {
    expect(
      ['tools/call', 'tools/list'].map((operation) => isCancellableRequest(operation, false, true)),
    ).toEqual([false, false]);
  });
});

describe('resumeDelayMs', () => {
  it.each([
    ['no advice', undefined, DEFAULT_RESUME_DELAY_MS],
    ['a negative advice', -5, DEFAULT_RESUME_DELAY_MS],
    ['a non-finite advice', Number.NaN, DEFAULT_RESUME_DELAY_MS],
    ['the conformance suite advice', 500, 500],
    ['zero', 0, 0],
    ['a fraction', 1.7, 1],
    ['an advice above the ceiling', 86_400_000, MAX_RESUME_DELAY_MS],
  ])('waits the right time for %s', (_label, advice, expected) => {
    expect(resumeDelayMs(advice)).toBe(expected);
  });
});

describe('buildRequestHeaders', () => {
  it('puts protocol headers over static ones and the bearer over a static Authorization', () => {
    const headers = buildRequestHeaders(
      {
        staticHeaders: secretHeaders({
          'X-Api-Key': 'k',
          Accept: 'text/html',
          Authorization: 'Basic static',
        }),
        token: new SecretValue('t0k'),
        sessionId: new SecretValue('s-1'),
        protocolVersion: '2025-11-25',
      },
      {
        accept: 'application/json, text/event-stream',
        contentType: 'application/json',
        lastEventId: 'e-7',
      },
    );
    expect(headers).toEqual({
      'x-api-key': 'k',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer t0k',
      'content-type': 'application/json',
      'mcp-session-id': 's-1',
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': 'e-7',
    });
  });

  it('adds the stateless Mcp-Method and Mcp-Name, the name in its base64 form when unsafe', () => {
    const parts = {
      staticHeaders: secretHeaders(undefined),
      token: undefined,
      sessionId: undefined,
      protocolVersion: '2026-07-28',
    };
    const framing = { accept: 'application/json', mcpMethod: 'tools/call' };
    expect(buildRequestHeaders(parts, { ...framing, mcpName: 'echo' })).toEqual({
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    });
    expect(buildRequestHeaders(parts, { ...framing, mcpName: 'météo' })['mcp-name']).toBe(
      `=?base64?${Buffer.from('météo').toString('base64')}?=`,
    );
  });

  it('sends no Authorization, session or version header before they exist', () => {
    expect(
      buildRequestHeaders(
        {
          staticHeaders: secretHeaders(undefined),
          token: undefined,
          sessionId: undefined,
          protocolVersion: undefined,
        },
        { accept: 'text/event-stream' },
      ),
    ).toEqual({ accept: 'text/event-stream' });
  });
});

describe('requestEnvelope and tools/list pages', () => {
  it.each([
    [
      'a call',
      { method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } },
      undefined,
      {
        method: 'tools/call',
        params: { name: 'echo', arguments: { a: 1 } },
      },
    ],
    [
      'a first listing page',
      { method: 'tools/list' },
      undefined,
      { method: 'tools/list', params: {} },
    ],
    [
      'a later listing page',
      { method: 'tools/list' },
      'c-2',
      {
        method: 'tools/list',
        params: { cursor: 'c-2' },
      },
    ],
  ] as const)('builds %s', (_label, request, cursor, expected) => {
    expect(requestEnvelope(request, cursor)).toEqual(expected);
  });

  it.each([
    [{ nextCursor: 'c-2' }, 'c-2'],
    [{ nextCursor: '' }, undefined],
    [{ nextCursor: 7 }, undefined],
    [{}, undefined],
    [undefined, undefined],
  ])('reads the next cursor of %j as %j', (page, expected) => {
    expect(nextCursorOf(page)).toBe(expected);
  });

  it('appends pages in order, tools and refusals alike, dropping the page cursor', () => {
    const first = {
      tools: [{ name: 'a', inputSchema: { type: 'object' as const } }],
      rejected: [{ message: 'bad' }],
      nextCursor: 'c-2',
    };
    const second = {
      tools: [{ name: 'b', inputSchema: { type: 'object' as const } }],
      rejected: [],
    };
    expect(mergeToolPages(mergeToolPages(undefined, first), second)).toEqual({
      tools: [first.tools[0], second.tools[0]],
      rejected: [{ message: 'bad' }],
    });
  });
});

describe('decodeRpcResponse', () => {
  const scope = { connectionName: 'c', operation: 'tools/call', phase: 'call' } as const;

  it('returns the validated call result', () => {
    expect(decodeRpcResponse({ jsonrpc: '2.0', id: 2, result: { content: [] } }, 2, scope)).toEqual(
      { ok: true, value: { content: [] } },
    );
  });

  it.each([
    ['a JSON-RPC error', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'no' } }],
    ['another id', { jsonrpc: '2.0', id: 3, result: { content: [] } }],
    ['an invalid result', { jsonrpc: '2.0', id: 2, result: { content: 'nope' } }],
  ])('refuses %s with a ConnectionProtocolError and never throws', (_label, message) => {
    const decoded = decodeRpcResponse(message, 2, scope);
    expect(decoded.ok).toBe(false);
    expect(decoded.ok ? undefined : decoded.error).toBeInstanceOf(ConnectionProtocolError);
  });
});

describe('statelessRequestMessage', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'stitchkit-transport', version: '0.1.0' },
  };

  /** A call may become a task: it declares the tasks extension (a listing does not). */
  const callMeta = {
    ...meta,
    'io.modelcontextprotocol/clientCapabilities': {
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    },
  };

  it('carries the envelope instead of a session, and the progress token of a call', () => {
    const call = { method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } } as const;
    const envelope = { progressToken: 'p-1', capabilities: {}, logLevel: undefined };
    expect(statelessRequestMessage(call, 2, undefined, envelope)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { a: 1 }, _meta: { ...callMeta, progressToken: 'p-1' } },
    });
  });

  it('asks for every log level only when the caller takes logs', () => {
    const call = { method: 'tools/call', params: { name: 'echo', arguments: {} } } as const;
    const envelope = { progressToken: undefined, capabilities: {}, logLevel: 'debug' };
    expect(statelessRequestMessage(call, 4, undefined, envelope).params).toEqual({
      name: 'echo',
      arguments: {},
      _meta: { ...callMeta, 'io.modelcontextprotocol/logLevel': 'debug' },
    });
  });

  it('asks for the next tools/list page with its cursor, and declares what the caller declared', () => {
    expect(
      statelessRequestMessage({ method: 'tools/list' }, 3, 'c-2', {
        progressToken: 'p-1',
        capabilities: { elicitation: {}, roots: { listChanged: true } },
        logLevel: undefined,
      }),
    ).toEqual({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
      params: {
        cursor: 'c-2',
        _meta: {
          ...meta,
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, roots: {} },
        },
      },
    });
  });
});

describe('initializeMessage', () => {
  const capabilitiesOf = (message: ReturnType<typeof initializeMessage>) =>
    (message.params as { capabilities: unknown }).capabilities;

  it.each([
    [undefined, {}],
    [{}, {}],
    [
      { sampling: { tools: {} }, elicitation: { form: {} } },
      { sampling: { tools: {} }, elicitation: { form: {} } },
    ],
    // A per-call client cannot relay later root changes, so it never declares them.
    [{ roots: { listChanged: true } }, { roots: {} }],
  ])('declares %j as %j', (declared, expected) => {
    expect(capabilitiesOf(initializeMessage(declared))).toEqual(expected);
  });
});

describe('mergeToolPages and caching hints', () => {
  const page = (cache?: { ttlMs: number; cacheScope: 'public' | 'private' }) => ({
    tools: [],
    rejected: [],
    ...(cache === undefined ? {} : { cache }),
  });

  it.each([
    [undefined, undefined, undefined],
    [{ ttlMs: 500, cacheScope: 'public' }, undefined, { ttlMs: 500, cacheScope: 'public' }],
    [
      { ttlMs: 500, cacheScope: 'public' },
      { ttlMs: 200, cacheScope: 'public' },
      { ttlMs: 200, cacheScope: 'public' },
    ],
    [
      { ttlMs: 100, cacheScope: 'public' },
      { ttlMs: 900, cacheScope: 'private' },
      { ttlMs: 100, cacheScope: 'private' },
    ],
  ] as const)(
    'merges %j and %j into %j: as fresh as the stalest page, private if any is',
    (a, b, expected) => {
      const merged = mergeToolPages(page(a), page(b));
      expect(merged.cache).toEqual(expected);
    },
  );
});
