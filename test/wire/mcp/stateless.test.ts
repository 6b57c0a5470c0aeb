/**
 * The MCP 2026-07-28 wire pieces, one table per rule: the JSON-RPC error an HTTP answer carries,
 * the versions a `-32022` names, the header form of a value, and a result's `resultType`.
 */
import { describe, expect, it } from 'vitest';
import {
  ConnectionProtocolError,
  operationScope,
  parseListToolsResult,
} from '../../../src/wire/index.js';
import {
  headerParamsOf,
  inputRequiredOf,
  mcpHeaderValue,
  mcpParamHeaders,
  rpcErrorOf,
  rpcRefusalViolation,
  supportedVersionsOf,
} from '../../../src/wire/mcp/stateless.js';

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

describe('inputRequiredOf', () => {
  const scope = operationScope('v2', 'tools/call');

  it.each([[{ content: [] }], [{ content: [], resultType: 'complete' }], [null]])(
    'takes %j as complete',
    (result) => {
      expect(inputRequiredOf(result, scope)).toBeUndefined();
    },
  );

  it('reads an input_required result: the requests, each with its params, and the state as sent', () => {
    expect(
      inputRequiredOf(
        {
          resultType: 'input_required',
          inputRequests: {
            confirm: { method: 'elicitation/create', params: { message: 'Sure?' } },
            roots: { method: 'roots/list' },
          },
          requestState: 'opaque=1',
        },
        scope,
      ),
    ).toEqual({
      inputRequests: {
        confirm: { method: 'elicitation/create', params: { message: 'Sure?' } },
        roots: { method: 'roots/list', params: {} },
      },
      requestState: 'opaque=1',
    });
    expect(inputRequiredOf({ resultType: 'input_required', requestState: 's' }, scope)).toEqual({
      inputRequests: {},
      requestState: 's',
    });
  });

  it.each([
    [{ resultType: 'streaming' }, 'sent a result of an unknown resultType'],
    [
      { resultType: 'input_required' },
      'sent an input_required result with neither inputRequests nor requestState',
    ],
    [
      { resultType: 'input_required', requestState: 7 },
      'sent an input_required result whose requestState is not a string',
    ],
    [
      { resultType: 'input_required', inputRequests: [] },
      'sent inputRequests that are not an object',
    ],
    [
      { resultType: 'input_required', inputRequests: { a: { params: {} } } },
      'sent an input request without a method',
    ],
  ])('refuses %j', (result, violation) => {
    expect(() => inputRequiredOf(result, scope)).toThrow(ConnectionProtocolError);
    expect(() => inputRequiredOf(result, scope)).toThrow(`Connection "v2" ${violation}`);
  });
});

describe('headerParamsOf', () => {
  const schemaWith = (
    properties: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => ({
    type: 'object',
    properties,
    ...extra,
  });

  it('lists the top-level string, integer and boolean properties an x-mcp-header names', () => {
    expect(
      headerParamsOf(
        schemaWith({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
          dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
          note: { type: 'string' },
        }),
      ),
    ).toEqual({
      params: [
        { argument: 'region', header: 'Region' },
        { argument: 'count', header: 'Count' },
        { argument: 'dry', header: 'Dry-Run' },
      ],
    });
    expect(headerParamsOf({ type: 'object' })).toEqual({ params: [] });
  });

  it.each([
    [
      'an empty name',
      schemaWith({ a: { type: 'string', 'x-mcp-header': '' } }),
      'x-mcp-header of "a" is not a header name',
    ],
    [
      'a name that is no token',
      schemaWith({ a: { type: 'string', 'x-mcp-header': 'A B' } }),
      'x-mcp-header of "a" is not a header name',
    ],
    [
      'a duplicate ignoring case',
      schemaWith({
        a: { type: 'string', 'x-mcp-header': 'Zone' },
        b: { type: 'string', 'x-mcp-header': 'zone' },
      }),
      'x-mcp-header "zone" names two arguments',
    ],
    [
      'a number property',
      schemaWith({ a: { type: 'number', 'x-mcp-header': 'A' } }),
      'x-mcp-header of "a" is on a number property',
    ],
    [
      'an object property',
      schemaWith({ a: { type: 'object', 'x-mcp-header': 'A' } }),
      'x-mcp-header of "a" is on a object property',
    ],
    [
      'a nested property',
      schemaWith({
        a: { type: 'object', properties: { b: { type: 'string', 'x-mcp-header': 'B' } } },
      }),
      'x-mcp-header appears on something other than a top-level property',
    ],
    [
      'a definition',
      schemaWith({}, { $defs: { d: { type: 'string', 'x-mcp-header': 'D' } } }),
      'x-mcp-header appears on something other than a top-level property',
    ],
  ])('refuses %s', (_label, schema, invalid) => {
    expect(headerParamsOf(schema)).toEqual({ invalid });
  });
});

describe('mcpParamHeaders', () => {
  const params = [
    { argument: 'region', header: 'Region' },
    { argument: 'count', header: 'Count' },
    { argument: 'dry', header: 'Dry-Run' },
  ];

  it.each([
    [
      { region: 'eu-west', count: 3, dry: false },
      { 'mcp-param-region': 'eu-west', 'mcp-param-count': '3', 'mcp-param-dry-run': 'false' },
    ],
    [
      { region: 'café' },
      { 'mcp-param-region': `=?base64?${Buffer.from('café').toString('base64')}?=` },
    ],
    [{ region: null, count: 1.5 }, {}],
    [{}, {}],
  ])('%j -> %j', (args, expected) => {
    expect(mcpParamHeaders(params, args)).toEqual(expected);
  });
});

describe('rpcRefusalViolation', () => {
  it.each([
    [
      400,
      {
        code: -32021,
        message: 'no',
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      },
      'needs client capabilities its caller did not declare (elicitation)',
    ],
    [
      400,
      { code: -32021, message: 'no' },
      'needs client capabilities its caller did not declare (none named)',
    ],
    [400, { code: -32602, message: 'bad' }, 'answered HTTP 400 with MCP error (code -32602)'],
    [404, { code: -32601, message: 'none' }, 'answered HTTP 404 with MCP error (code -32601)'],
  ])('%i %j -> %s', (status, error, expected) => {
    expect(rpcRefusalViolation(status, error)).toBe(expected);
  });
});

describe('the caching hint of a tools/list result', () => {
  const scope = operationScope('v2', 'tools/list');
  it.each([
    [{ tools: [] }, undefined],
    [
      { tools: [], ttlMs: 60_000, cacheScope: 'public' },
      { ttlMs: 60_000, cacheScope: 'public' },
    ],
    [
      { tools: [], ttlMs: -5 },
      { ttlMs: 0, cacheScope: 'private' },
    ],
    [
      { tools: [], cacheScope: 'shared' },
      { ttlMs: 0, cacheScope: 'private' },
    ],
    [
      { tools: [], ttlMs: 1.5, cacheScope: 'private' },
      { ttlMs: 0, cacheScope: 'private' },
    ],
  ])('%j -> %j', (result, expected) => {
    expect(parseListToolsResult(result, scope).cache).toEqual(expected);
  });
});
