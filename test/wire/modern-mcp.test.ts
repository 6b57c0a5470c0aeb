/**
 * The MCP 2026-07-28 wire pieces, one table per rule: the JSON-RPC error an HTTP answer carries,
 * the versions a `-32022` names, the header form of a value, and a result's `resultType`.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionProtocolError, operationScope } from '../../src/wire/index.js';
import {
  assertCompleteResult,
  mcpHeaderValue,
  rpcErrorOf,
  supportedVersionsOf,
} from '../../src/wire/modern-mcp.js';

describe('rpcErrorOf', () => {
  it.each([
    [
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"no","data":{"supported":["2026-07-28"]}}}',
      { code: -32022, message: 'no', data: { supported: ['2026-07-28'] } },
    ],
    [
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad"}}',
      { code: -32000, message: 'Bad' },
    ],
    ['{"jsonrpc":"2.0","error":{"code":-32601}}', { code: -32601, message: '' }],
    ['{"jsonrpc":"2.0","error":{"code":"x","message":"no"}}', undefined],
    ['{"jsonrpc":"2.0","error":{"code":1.5,"message":"no"}}', undefined],
    ['{"jsonrpc":"1.0","error":{"code":-1,"message":"no"}}', undefined],
    ['{"jsonrpc":"2.0","id":1,"result":{}}', undefined],
    ['Bad Request', undefined],
    ['', undefined],
  ])('%s -> %j', (body, expected) => {
    expect(rpcErrorOf(body)).toEqual(expected);
  });
});

describe('supportedVersionsOf', () => {
  it.each([
    [
      { code: -32022, message: '', data: { supported: ['2026-07-28', 7, '2025-11-25'] } },
      ['2026-07-28', '2025-11-25'],
    ],
    [{ code: -32022, message: '', data: { supported: 'all' } }, []],
    [{ code: -32022, message: '' }, []],
    [undefined, []],
  ])('%j -> %j', (error, expected) => {
    expect(supportedVersionsOf(error)).toEqual(expected);
  });
});

describe('mcpHeaderValue', () => {
  it.each([
    ['echo', 'echo'],
    ['get weather', 'get weather'],
    ['a/b:c', 'a/b:c'],
    [' edge', `=?base64?${Buffer.from(' edge').toString('base64')}?=`],
    ['edge ', `=?base64?${Buffer.from('edge ').toString('base64')}?=`],
    ['héllo', `=?base64?${Buffer.from('héllo').toString('base64')}?=`],
    ['line\nbreak', `=?base64?${Buffer.from('line\nbreak').toString('base64')}?=`],
    ['=?base64?abc?=', `=?base64?${Buffer.from('=?base64?abc?=').toString('base64')}?=`],
    ['', '=?base64??='],
  ])('%j -> %j', (value, expected) => {
    expect(mcpHeaderValue(value)).toBe(expected);
  });
});

describe('assertCompleteResult', () => {
  const scope = operationScope('v2', 'tools/call');

  it.each([[{ content: [] }], [{ content: [], resultType: 'complete' }], [null]])(
    'takes %j as complete',
    (result) => {
      expect(() => assertCompleteResult(result, scope)).not.toThrow();
    },
  );

  it.each([
    [
      { resultType: 'input_required', inputRequests: {} },
      'asked for client input (resultType input_required), which this client does not answer yet',
    ],
    [{ resultType: 'streaming' }, 'sent a result of an unknown resultType'],
  ])('refuses %j', (result, violation) => {
    expect(() => assertCompleteResult(result, scope)).toThrow(ConnectionProtocolError);
    expect(() => assertCompleteResult(result, scope)).toThrow(`Connection "v2" ${violation}`);
  });
});
