/**
 * The server-request rules of `mcpOperation`, one table per rule: which stream message is a
 * server request or a log message, what the client answers itself, and how the caller's answer is
 * posted back.
 */
import { describe, expect, it } from 'vitest';
import {
  isServerMessage,
  localAnswer,
  logMessageOf,
  relayedAnswer,
  serverRequestOf,
} from '../../../src/machines/mcp-operation/mcp-operation.server-requests.js';

describe('server requests', () => {
  it.each([
    [
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { id: 7, method: 'ping', params: {} },
    ],
    [
      { jsonrpc: '2.0', id: 's', method: 'roots/list', params: { _meta: { a: 1 } } },
      { id: 's', method: 'roots/list', params: { _meta: { a: 1 } } },
    ],
    [
      { jsonrpc: '2.0', id: 1, method: 'x', params: [1] },
      { id: 1, method: 'x', params: {} },
    ],
    [{ jsonrpc: '2.0', method: 'notifications/message', params: {} }, undefined],
    [{ jsonrpc: '2.0', id: 2, result: {} }, undefined],
    [
      { jsonrpc: '2.0', id: 1, method: 'x', params: null },
      { id: 1, method: 'x', params: {} },
    ],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, undefined],
    ['ping', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('serverRequestOf(%j) is %j', (message, expected) => {
    expect(serverRequestOf(message)).toEqual(expected);
  });

  const request = (method: string) => ({ id: 9, method, params: {} });
  const notFound = { jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found' } };

  it.each([
    ['ping', {}, { jsonrpc: '2.0', id: 9, result: {} }],
    ['ping', { sampling: {} }, { jsonrpc: '2.0', id: 9, result: {} }],
    ['sampling/createMessage', {}, notFound],
    ['sampling/createMessage', { sampling: {} }, undefined],
    ['sampling/createMessage', { elicitation: {} }, notFound],
    ['elicitation/create', { elicitation: {} }, undefined],
    ['roots/list', { roots: {} }, undefined],
    ['tasks/get', { sampling: {}, elicitation: {}, roots: {} }, notFound],
  ])(
    'localAnswer of %s with %j is %j (undefined: the caller answers)',
    (method, capabilities, expected) => {
      expect(localAnswer(request(method), capabilities)).toEqual(expected);
    },
  );

  it('posts back the caller answer under the server id, as written', () => {
    expect(relayedAnswer('r-1', { result: { action: 'accept', content: { a: 1 } } })).toEqual({
      jsonrpc: '2.0',
      id: 'r-1',
      result: { action: 'accept', content: { a: 1 } },
    });
    expect(relayedAnswer(3, { error: { code: -1, message: 'User rejected', data: [1] } })).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -1, message: 'User rejected', data: [1] },
    });
  });

  it.each([
    [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      { level: 'info', data: 'x' },
    ],
    [
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'error', logger: 'db', data: { n: 1 } },
      },
      { level: 'error', logger: 'db', data: { n: 1 } },
    ],
    [{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } }, undefined],
    [{ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x' } }, undefined],
    [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'notifications/message',
        params: { level: 'info', data: 1 },
      },
      undefined,
    ],
    [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { level: 'info', data: 1 } },
      undefined,
    ],
    [{ jsonrpc: '2.0', method: 'notifications/message', params: null }, undefined],
    [{ jsonrpc: '2.0', method: 'notifications/message' }, undefined],
    [{ jsonrpc: '2.0', method: 'notifications/message', params: 'info' }, undefined],
    [null, undefined],
    [undefined, undefined],
  ])('logMessageOf(%j) is %j', (message, expected) => {
    expect(logMessageOf(message)).toEqual(expected);
  });
});

describe('isServerMessage', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 7, method: 'ping' }, true],
    [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      true,
    ],
    [{ jsonrpc: '2.0', id: 2, result: {} }, false],
    [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }, false],
    ['text', false],
  ])('isServerMessage(%j) is %s', (message, expected) => {
    expect(isServerMessage(message)).toBe(expected);
  });
});
