/**
 * What `mcpOperation` puts on the wire besides the envelope tables of the policy tests: the
 * cancellation notice by cause, the retry that brings the caller's answers, and the `Mcp-Name` and
 * `Mcp-Param-*` framing of a stateless call.
 */
import { describe, expect, it } from 'vitest';
import {
  buildRequestHeaders,
  cancelledMessage,
  initializedMessage,
  initializeMessage,
  requestMessage,
  requestNameOf,
  requestParamHeadersOf,
  statelessRequestMessage,
} from '../../../src/machines/mcp-operation/mcp-operation.messages.js';
import type { McpRequest } from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import type { McpHeaderParam } from '../../../src/wire/index.js';
import { CLIENT_INFO } from '../../../src/wire/mcp/client-info.js';

describe('cancelledMessage', () => {
  it.each([
    ['timeout', 'The client timed out the request'],
    ['cancelled', 'The client cancelled the request'],
    [undefined, 'The client cancelled the request'],
  ] as const)('gives up request 2 for %s with a fixed reason', (cause, reason) => {
    expect(cancelledMessage(2, cause)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, reason },
    });
  });
});

describe('initializedMessage', () => {
  it('is the bare notifications/initialized', () => {
    expect(initializedMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
  });
});

describe('statelessRequestMessage, a retry that brings answers', () => {
  const call = { method: 'tools/call', params: { name: 'book', arguments: {} } } as const;
  const envelope = { progressToken: undefined, capabilities: {}, logLevel: undefined };

  it("carries the caller's answers and the server's state exactly as it was sent", () => {
    const { params } = statelessRequestMessage(call, 3, undefined, envelope, {
      inputResponses: { confirm: { action: 'accept' } },
      requestState: 'opaque/state=1',
    });
    expect(params).toMatchObject({
      inputResponses: { confirm: { action: 'accept' } },
      requestState: 'opaque/state=1',
    });
  });

  it('carries no state when the server sent none, and neither on a first attempt', () => {
    const answered = statelessRequestMessage(call, 3, undefined, envelope, {
      inputResponses: { confirm: { action: 'decline' } },
      requestState: undefined,
    }).params;
    expect(answered).toMatchObject({ inputResponses: { confirm: { action: 'decline' } } });
    expect(answered).not.toHaveProperty('requestState');
    const first = statelessRequestMessage(call, 2, undefined, envelope).params;
    expect(first).not.toHaveProperty('inputResponses');
    expect(first).not.toHaveProperty('requestState');
  });

  it('never sends a progress token with a listing', () => {
    const { params } = statelessRequestMessage({ method: 'tools/list' }, 2, undefined, {
      ...envelope,
      progressToken: 'p-1',
    });
    expect((params as { _meta: object })._meta).not.toHaveProperty('progressToken');
  });
});

describe('statelessRequestMessage, the envelope of a caller that declares nothing', () => {
  const envelope = { progressToken: undefined, capabilities: {}, logLevel: undefined };
  const metaOf = (request: McpRequest) =>
    (statelessRequestMessage(request, 2, undefined, envelope).params as { _meta: object })._meta;
  const call: McpRequest = { method: 'tools/call', params: { name: 'book', arguments: {} } };

  it('declares the tasks extension on a call and nothing on a listing, with this client', () => {
    expect(metaOf(call)).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
      'io.modelcontextprotocol/clientInfo': {
        name: 'stitchkit-transport',
        version: CLIENT_INFO.version,
      },
    });
    expect(metaOf({ method: 'tools/list' })).toMatchObject({
      'io.modelcontextprotocol/clientCapabilities': {},
    });
  });

  it('shares parts no request can change, so one request never alters the next', () => {
    const meta = metaOf(call) as Record<string, Record<string, unknown>>;
    const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
    const info = meta['io.modelcontextprotocol/clientInfo'];
    expect(() => {
      (capabilities as Record<string, unknown>).sampling = {};
    }).toThrow(TypeError);
    expect(() => {
      ((capabilities?.extensions ?? {}) as Record<string, unknown>).other = {};
    }).toThrow(TypeError);
    expect(() => {
      (info as Record<string, unknown>).name = 'x';
    }).toThrow(TypeError);
    expect(metaOf(call)).toEqual(meta);
  });
});

describe('the framing of a stateless call', () => {
  const call = (headerParams?: readonly McpHeaderParam[]): McpRequest => ({
    method: 'tools/call',
    params: { name: 'search', arguments: { region: 'eu', limit: 5, q: 'x' } },
    ...(headerParams === undefined ? {} : { headerParams }),
  });

  it('names the tool of a call, and nothing for a listing', () => {
    expect(requestNameOf(call())).toBe('search');
    expect(requestNameOf({ method: 'tools/list' })).toBeUndefined();
  });

  it('mirrors the arguments its tool declared into Mcp-Param-* headers, and only those', () => {
    expect(
      requestParamHeadersOf(
        call([
          { argument: 'region', header: 'Region' },
          { argument: 'limit', header: 'Limit' },
        ]),
      ),
    ).toEqual({ 'mcp-param-region': 'eu', 'mcp-param-limit': '5' });
  });

  it('has no Mcp-Param-* headers for a tool that mirrors nothing, nor for a listing', () => {
    expect(requestParamHeadersOf(call())).toBeUndefined();
    expect(requestParamHeadersOf(call([]))).toBeUndefined();
    expect(requestParamHeadersOf({ method: 'tools/list' })).toBeUndefined();
  });
});

describe('what each message carries, and what it leaves out', () => {
  const trace = { meta: { traceparent: '00-abc-def-01' }, headers: undefined };
  const call = { method: 'tools/call', params: { name: 'echo', arguments: {} } } as const;

  it('opens with initialize under id 1, naming this client and the trace context', () => {
    const message = initializeMessage({}, trace);
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 1, method: 'initialize' });
    expect(message.params).toMatchObject({
      clientInfo: { name: 'stitchkit-transport', version: expect.any(String) },
      _meta: { traceparent: '00-abc-def-01' },
    });
    expect(initializeMessage({}).params).not.toHaveProperty('_meta');
  });

  it('writes the trace context into the request, without a progress token nobody asked for', () => {
    const { params } = requestMessage(call, 2, undefined, undefined, trace);
    expect(params).toEqual({
      name: 'echo',
      arguments: {},
      _meta: { traceparent: '00-abc-def-01' },
    });
    expect((params as { _meta: object })._meta).not.toHaveProperty('progressToken');
  });

  it('leaves the log level and the progress token out of a stateless envelope that has neither', () => {
    const { params } = statelessRequestMessage(call, 2, undefined, {
      progressToken: undefined,
      capabilities: {},
      logLevel: undefined,
    });
    const meta = (params as { _meta: object })._meta;
    expect(meta).not.toHaveProperty('progressToken');
    expect(meta).not.toHaveProperty('io.modelcontextprotocol/logLevel');
  });

  it('puts the Mcp-Param-* headers of a stateless call on the request, after the static ones', () => {
    const headers = buildRequestHeaders(
      {
        staticHeaders: { 'mcp-param-region': new SecretValue('configured') },
        token: undefined,
        sessionId: undefined,
        protocolVersion: '2026-07-28',
      },
      {
        accept: 'application/json, text/event-stream',
        mcpMethod: 'tools/call',
        mcpName: 'search',
        mcpParams: { 'mcp-param-region': 'eu' },
      },
    );
    expect(headers).toMatchObject({
      'mcp-method': 'tools/call',
      'mcp-name': 'search',
      'mcp-param-region': 'eu',
    });
    expect(
      buildRequestHeaders(
        { staticHeaders: {}, token: undefined, sessionId: undefined, protocolVersion: undefined },
        { accept: 'text/event-stream' },
      ),
    ).toEqual({ accept: 'text/event-stream' });
  });
});
