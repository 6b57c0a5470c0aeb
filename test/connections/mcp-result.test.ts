/**
 * How an MCP `tools/call` result crosses into the tool contract: unwrapping a payload, and turning
 * an upstream `isError: true` result into an AppError.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/binding/index.js';
import {
  namesUnknownTool,
  unwrapMcpResult,
  upstreamToolError,
} from '../../src/connections/mcp-result.js';
import { ConnectionProtocolError } from '../../src/wire/index.js';

const text = (value: string) => ({ type: 'text' as const, text: value });

describe('unwrapMcpResult', () => {
  it.each<[string, CallToolResult, unknown]>([
    [
      'structuredContent wins over a JSON text part',
      { content: [text('{"from":"text"}')], structuredContent: { from: 'structured' } },
      { from: 'structured' },
    ],
    [
      'structuredContent wins over several parts',
      { content: [text('a'), text('b')], structuredContent: { n: 2 } },
      { n: 2 },
    ],
    ['a lone JSON object text is parsed', { content: [text('{"sum":5}')] }, { sum: 5 }],
    ['a lone JSON array text is parsed', { content: [text('[1,2]')] }, [1, 2]],
    ['a lone JSON number text is parsed', { content: [text('42')] }, 42],
    ['a lone JSON null text is parsed', { content: [text('null')] }, null],
    ['a lone prose text stays text', { content: [text('Echo: hi')] }, 'Echo: hi'],
    ['a lone empty text stays an empty string', { content: [text('')] }, ''],
    ['empty content is null', { content: [] }, null],
  ])('%s', (_label, result, expected) => {
    expect(unwrapMcpResult(result)).toEqual(expected);
  });

  it('returns the whole envelope for two parts', () => {
    const result: CallToolResult = { content: [text('one'), text('two')] };
    expect(unwrapMcpResult(result)).toBe(result);
  });

  it('returns the whole envelope for a lone non-text part', () => {
    const result: CallToolResult = {
      content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
    };
    expect(unwrapMcpResult(result)).toBe(result);
  });
});

/** The fields of an AppError that reach a caller, as a plain object. */
function fieldsOf(error: AppError) {
  return {
    isAppError: AppError.isInstance(error),
    code: error.code,
    status: error.status,
    message: error.message,
    details: error.details,
    hint: error.hint,
    retryable: error.retryable,
  };
}

const refusal = (payload: unknown): CallToolResult => ({
  isError: true,
  content: [text(JSON.stringify(payload))],
});

describe('upstreamToolError', () => {
  it('keeps a structured refusal code, message, hint, declared retryability and other fields', () => {
    const error = upstreamToolError(
      'lookup',
      refusal({
        error: 'ITEM_NOT_FOUND',
        message: 'no such item',
        _hint: 'check the id',
        retryable: false,
        id: 7,
      }),
    );
    expect(fieldsOf(error)).toEqual({
      isAppError: true,
      code: 'ITEM_NOT_FOUND',
      status: 502,
      message: 'no such item',
      details: { id: 7, message: 'no such item' },
      hint: 'check the id',
      retryable: false,
    });
  });

  it('reads a structured refusal from structuredContent', () => {
    const error = upstreamToolError('lookup', {
      isError: true,
      content: [text('prose the model may ignore')],
      structuredContent: { error: 'REMOTE_CONFLICT', retryable: true },
    });
    expect(fieldsOf(error)).toEqual({
      isAppError: true,
      code: 'REMOTE_CONFLICT',
      status: 502,
      message: 'REMOTE_CONFLICT',
      details: {},
      hint: undefined,
      retryable: true,
    });
  });

  it.each([
    ['a number', 0],
    ['a string', 'false'],
    ['null', null],
  ])(
    'ignores a retryable that is %s: an upstream tool error is not retryable unless it says so',
    (_label, retryable) => {
      const error = upstreamToolError('lookup', refusal({ error: 'BUSY', retryable }));
      expect(error.retryable).toBe(false);
      expect(error.code).toBe('BUSY');
    },
  );

  it('drops a hint and a message that are not strings, using the code as the message', () => {
    const error = upstreamToolError(
      'lookup',
      refusal({ error: 'BUSY', _hint: 42, message: { nested: true } }),
    );
    expect(fieldsOf(error)).toEqual({
      isAppError: true,
      code: 'BUSY',
      status: 502,
      message: 'BUSY',
      details: {},
      hint: undefined,
      retryable: false,
    });
  });

  it.each<[string, CallToolResult, unknown]>([
    ['a lowercase error word', refusal({ error: 'not found' }), { error: 'not found' }],
    [
      'an error code that is too long',
      refusal({ error: `E${'X'.repeat(64)}` }),
      { error: `E${'X'.repeat(64)}` },
    ],
    ['a non-string error', refusal({ error: 404 }), { error: 404 }],
    ['prose', { isError: true, content: [text('something broke')] }, 'something broke'],
    ['empty content', { isError: true, content: [] }, null],
    ['a JSON array', refusal(['ERR']), ['ERR']],
  ])(
    'turns %s into UPSTREAM_TOOL_ERROR 502 carrying the upstream payload',
    (_label, result, upstream) => {
      const error = upstreamToolError('lookup', result);
      expect(fieldsOf(error)).toEqual({
        isAppError: true,
        code: 'UPSTREAM_TOOL_ERROR',
        status: 502,
        message: 'External MCP tool "lookup" returned an error',
        details: { upstream },
        hint: undefined,
        retryable: false,
      });
    },
  );

  it('carries a two-part refusal as the whole envelope', () => {
    const result: CallToolResult = { isError: true, content: [text('a'), text('b')] };
    expect(upstreamToolError('lookup', result).details).toEqual({ upstream: result });
  });
});

describe('namesUnknownTool', () => {
  const refusal = (rpcCode: number, rpcMessage: string) =>
    new ConnectionProtocolError({
      connectionName: 'docs',
      operation: 'tools/call',
      phase: 'call',
      violation: 'answered with a JSON-RPC error',
      rpcCode,
      rpcMessage,
    });
  const toolError = (message: string, isError = true): CallToolResult => ({
    content: [{ type: 'text', text: message }],
    isError,
  });

  it('reads a -32602 that names the tool, or a tool error that does, as the tool gone', () => {
    expect(namesUnknownTool(refusal(-32602, 'MCP error: Tool echo not found'), 'echo')).toBe(true);
    expect(namesUnknownTool(toolError('MCP error -32602: Tool echo not found'), 'echo')).toBe(true);
  });

  it('reads any other code, another tool, or a plain result as something else', () => {
    expect(namesUnknownTool(refusal(-32603, 'Tool echo not found'), 'echo')).toBe(false);
    expect(namesUnknownTool(refusal(-32602, 'Tool other not found'), 'echo')).toBe(false);
    expect(namesUnknownTool(refusal(-32602, 'Invalid arguments'), 'echo')).toBe(false);
    expect(namesUnknownTool(toolError('Tool echo not found', false), 'echo')).toBe(false);
    expect(namesUnknownTool(toolError('Tool other not found'), 'echo')).toBe(false);
  });
});
