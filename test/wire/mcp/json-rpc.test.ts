import { JSONRPCResultResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { OperationScope } from '../../../src/wire/core/operation.js';
import { ConnectionProtocolError } from '../../../src/wire/errors/errors.js';
import {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  isResponseTo,
  parseCallToolResult,
  parseInitializeResult,
  parseJsonText,
  parseListToolsResult,
  SESSION_REVISION,
  SESSION_REVISIONS,
  unwrapJsonRpcResponse,
} from '../../../src/wire/mcp/json-rpc.js';

const scope: OperationScope = { connectionName: 'c', operation: 'tools/list', phase: 'discovery' };

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('envelope builders', () => {
  it('builds a request with and without params', () => {
    expect(buildJsonRpcRequest(3, 'tools/list')).toEqual({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
    });
    expect(buildJsonRpcRequest(4, 'tools/call', { name: 'echo' })).toEqual({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'echo' },
    });
  });

  it('builds a notification without an id', () => {
    expect(buildJsonRpcNotification('notifications/initialized')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
  });
});

describe('parseJsonText', () => {
  it('parses JSON', () => {
    expect(parseJsonText('{"a":1}', scope)).toEqual({ a: 1 });
  });

  it('refuses text that is not JSON with ConnectionProtocolError', () => {
    const error = thrownBy(() => parseJsonText('<html>oops</html>', scope));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({ operation: 'tools/list', phase: 'discovery' });
    expect((error as Error).message).not.toContain('oops');
  });
});

describe('isResponseTo', () => {
  it.each([
    ['a result with the id', { jsonrpc: '2.0', id: 2, result: {} }, true],
    ['an error with the id', { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'x' } }, true],
    ['a result with another id', { jsonrpc: '2.0', id: 3, result: {} }, false],
    ['a result whose id is the string form', { jsonrpc: '2.0', id: '2', result: {} }, false],
    ['a server request reusing the id', { jsonrpc: '2.0', id: 2, method: 'ping' }, false],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/message' }, false],
    ['an object without jsonrpc', { id: 2, result: {} }, false],
    ['a non-object', 'hello', false],
    ['null', null, false],
  ])('%s -> %s', (_label, message, expected) => {
    expect(isResponseTo(message, 2)).toBe(expected);
  });
});

describe('unwrapJsonRpcResponse', () => {
  it('returns the result object of the expected id', () => {
    expect(
      unwrapJsonRpcResponse({ jsonrpc: '2.0', id: 5, result: { tools: [] } }, 5, scope),
    ).toEqual({
      tools: [],
    });
  });

  it.each([
    ['an id mismatch', { jsonrpc: '2.0', id: 6, result: {} }, /id mismatch/],
    ['a non-object', 42, /not a JSON-RPC response/],
    ['a request', { jsonrpc: '2.0', id: 5, method: 'x' }, /not a JSON-RPC response/],
    [
      'a result that is not an object',
      { jsonrpc: '2.0', id: 5, result: 3 },
      /not a JSON-RPC response/,
    ],
    [
      'an error for another id',
      { jsonrpc: '2.0', id: 9, error: { code: -1, message: 'm' } },
      /id mismatch/,
    ],
  ])('refuses %s with ConnectionProtocolError', (_label, message, pattern) => {
    const error = thrownBy(() => unwrapJsonRpcResponse(message, 5, scope));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect((error as Error).message).toMatch(pattern);
    expect((error as ConnectionProtocolError).rpcCode).toBeUndefined();
  });

  // The plain-result shortcut must answer exactly what the SDK's schema answers.
  it.each([
    ['a plain result', { jsonrpc: '2.0', id: 5, result: { tools: [], nextCursor: 'n' } }],
    ['an empty result', { jsonrpc: '2.0', id: 5, result: {} }],
    ['a result with valid _meta', { jsonrpc: '2.0', id: 5, result: { _meta: { k: 1 } } }],
    ['a result with invalid _meta', { jsonrpc: '2.0', id: 5, result: { _meta: 3 } }],
    ['an array result', { jsonrpc: '2.0', id: 5, result: [] }],
    ['a null result', { jsonrpc: '2.0', id: 5, result: null }],
    ['an extra key', { jsonrpc: '2.0', id: 5, result: {}, extra: true }],
    ['another version', { jsonrpc: '1.0', id: 5, result: {} }],
    ['a string id', { jsonrpc: '2.0', id: '5', result: {} }],
    ['no jsonrpc', { id: 5, result: {} }],
  ])('answers %s as the SDK schema does', (_label, message) => {
    const schema = JSONRPCResultResponseSchema.safeParse(message);
    const outcome = (() => {
      try {
        return { result: unwrapJsonRpcResponse(message, 5, scope) };
      } catch (error) {
        return { error };
      }
    })();
    if (schema.success && schema.data.id === 5) {
      expect(outcome).toEqual({ result: schema.data.result });
    } else {
      expect(outcome.error).toBeInstanceOf(ConnectionProtocolError);
    }
  });

  it.each([
    ['with the expected id', 5],
    ['with a null id', null],
  ])('turns a JSON-RPC error %s into ConnectionProtocolError carrying its code', (_label, id) => {
    const message = { jsonrpc: '2.0', id, error: { code: -32602, message: 'SECRET detail' } };
    const error = thrownBy(() => unwrapJsonRpcResponse(message, 5, scope));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({ rpcCode: -32602, operation: 'tools/list' });
    expect((error as Error).message).not.toContain('SECRET');
  });
});

describe('parseInitializeResult', () => {
  const valid = {
    protocolVersion: SESSION_REVISION,
    capabilities: { tools: {} },
    serverInfo: { name: 'peer', version: '1.0.0' },
  };

  it('accepts the latest version and reports the server', () => {
    expect(parseInitializeResult(valid, scope)).toEqual({
      protocolVersion: SESSION_REVISION,
      serverInfo: { name: 'peer', version: '1.0.0' },
      tasksOffered: false,
      toolsListChanged: false,
    });
  });

  it.each([
    [{ tools: { listChanged: true } }, true],
    [{ tools: { listChanged: false } }, false],
    [{ tools: {} }, false],
    [{ prompts: { listChanged: true } }, false],
    [{}, false],
  ])('reads whether the server tells of tool list changes from %j', (capabilities, told) => {
    expect(parseInitializeResult({ ...valid, capabilities }, scope).toolsListChanged).toBe(told);
  });

  it.each([
    [{ tasks: { requests: { tools: { call: {} } } } }, true],
    [{ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, true],
    // Tasks for other requests, or none for tool calls: a tool call may not ask for one.
    [{ tasks: { requests: { sampling: { createMessage: {} } } } }, false],
    [{ tasks: { requests: { tools: {} } } }, false],
    [{ tasks: {} }, false],
    [{}, false],
  ])(
    'reads whether the server offers task-augmented tool calls from %j',
    (capabilities, offered) => {
      expect(parseInitializeResult({ ...valid, capabilities }, scope).tasksOffered).toBe(offered);
    },
  );

  it.each(SESSION_REVISIONS)('accepts supported version %s', (version) => {
    expect(
      parseInitializeResult({ ...valid, protocolVersion: version }, scope).protocolVersion,
    ).toBe(version);
  });

  it('refuses an unsupported protocol version', () => {
    expect(() => parseInitializeResult({ ...valid, protocolVersion: '1999-01-01' }, scope)).toThrow(
      ConnectionProtocolError,
    );
  });

  it('refuses a result the SDK schema rejects', () => {
    expect(() => parseInitializeResult({ protocolVersion: SESSION_REVISION }, scope)).toThrow(
      ConnectionProtocolError,
    );
  });
});

describe('parseListToolsResult', () => {
  it('keeps valid tools and reports the invalid entry without failing', () => {
    const outcome = parseListToolsResult(
      {
        tools: [
          { name: 'echo', inputSchema: { type: 'object', properties: { m: { type: 'string' } } } },
          { name: 'broken', inputSchema: { type: 'string' } },
          { description: 'no name', inputSchema: { type: 'object' } },
          { name: 'sum', description: 'adds', inputSchema: { type: 'object' } },
        ],
      },
      scope,
    );
    expect(outcome.tools.map((tool) => tool.name)).toEqual(['echo', 'sum']);
    expect(outcome.rejected).toHaveLength(2);
    expect(outcome.rejected[0]?.name).toBe('broken');
    expect(outcome.rejected[1]).not.toHaveProperty('name');
    expect(outcome.rejected[0]?.message).toMatch(/invalid MCP tool definition/);
  });

  it.each([
    ['no tools key', {}],
    ['tools that is not an array', { tools: {} }],
    ['a non-object', 'x'],
  ])('refuses a result with %s', (_label, result) => {
    expect(() => parseListToolsResult(result, scope)).toThrow(ConnectionProtocolError);
  });
});

describe('parseCallToolResult', () => {
  const callScope: OperationScope = { connectionName: 'c', operation: 'tools/call', phase: 'call' };

  it('accepts content and structured content', () => {
    const result = parseCallToolResult(
      { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 }, isError: false },
      callScope,
    );
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(result.structuredContent).toEqual({ a: 1 });
  });

  it.each([
    ['content that is not an array', { content: 'hi' }],
    ['a content part of an unknown type', { content: [{ type: 'video', url: 'x' }] }],
    ['a non-boolean isError', { content: [], isError: 'yes' }],
  ])('refuses %s', (_label, result) => {
    const error = thrownBy(() => parseCallToolResult(result, callScope));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({ operation: 'tools/call', phase: 'call' });
  });
});
