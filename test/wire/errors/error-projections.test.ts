/**
 * What a host and a model read of each connection error, to the word: the host-facing message
 * (with or without an operation, after a fallback to legacy HTTP+SSE), the projected message,
 * the exact set of projected detail keys (no `undefined` hole), the retryable flag by failure,
 * the JSON-RPC facts a gateway relays, and the rules that classify a credential or a network
 * fault. errors.test.ts holds the class table; this file pins the words and the edges.
 */
import { describe, expect, it } from 'vitest';
import { projectToolError } from '../../../src/binding/kernel/app-error.js';
import {
  MCP_INPUT_REQUIRED,
  MCP_REQUIRED_CAPABILITIES,
  MCP_TASK_CREATED,
  mcpCreatedTaskOf,
} from '../../../src/binding/kernel/mcp-protocols.js';
import {
  ConnectionCredentialError,
  credentialProblemOf,
} from '../../../src/wire/errors/credential-error.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionInputRequiredError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  MAX_ERROR_BODY_CHARS,
} from '../../../src/wire/errors/errors.js';
import {
  ConnectionNetworkError,
  isRetryableNetworkFailure,
  type NetworkFailure,
  networkFailureOf,
} from '../../../src/wire/errors/network-error.js';
import { ConnectionTaskCreatedError } from '../../../src/wire/errors/task-error.js';
import { wireFaultOf } from '../../../src/wire/errors/wire-failure.js';

const NAME = 'upstream';

/** The projection's message and its detail keys in order, as a model would read them. */
function projected(error: Error): {
  code: string | undefined;
  message: string | undefined;
  details: Record<string, unknown> | undefined;
  keys: string[];
  retryable: boolean | undefined;
  hint: string | undefined;
} {
  const app = projectToolError(error);
  return {
    code: app?.code,
    message: app?.message,
    details: app?.details,
    keys: Object.keys(app?.details ?? {}),
    retryable: app?.retryable,
    hint: app?.hint,
  };
}

describe('the projected message of each class, to the word', () => {
  it.each([
    [
      'authorization required',
      new ConnectionAuthorizationRequiredError({ connectionName: NAME, operation: 'tools/call' }),
      'The connection requires authorization.',
    ],
    [
      'a 403',
      new ConnectionRequestError({ connectionName: NAME, status: 403, body: '' }),
      'The connection refused the request: permission denied.',
    ],
    [
      'a 500',
      new ConnectionRequestError({ connectionName: NAME, status: 500, body: '' }),
      'The connection request failed with upstream status 500.',
    ],
    [
      'a refused URL',
      new ConnectionUrlError({ connectionName: NAME, refusal: 'refused a URL' }),
      'The connection refused a URL outside its policy.',
    ],
    [
      'a timeout',
      new ConnectionTimeoutError({ connectionName: NAME, timeoutMs: 1500 }),
      'The connection timed out after 1500 ms.',
    ],
    [
      'a byte ceiling',
      new ConnectionResponseTooLargeError({ connectionName: NAME, maxBytes: 4096 }),
      'The connection response exceeded the 4096 byte limit.',
    ],
    [
      'a malformed answer',
      new ConnectionProtocolError({ connectionName: NAME, violation: 'sent no JSON' }),
      'The connection returned a malformed response.',
    ],
    [
      'a JSON-RPC error',
      new ConnectionProtocolError({ connectionName: NAME, violation: 'v', rpcCode: -32602 }),
      'The connection answered with JSON-RPC error -32602.',
    ],
    [
      'a violation of ours to explain',
      new ConnectionProtocolError({
        connectionName: NAME,
        violation: 'v',
        rpcCode: -32602,
        safeMessage: 'The upstream asked for sampling in the middle of its call.',
      }),
      'The upstream asked for sampling in the middle of its call.',
    ],
    [
      'a credential refused',
      new ConnectionCredentialError({ connectionName: NAME, problem: 'not-a-string' }),
      'The connection could not use its credential.',
    ],
    [
      'a network failure',
      new ConnectionNetworkError({ connectionName: NAME, failure: 'dns' }),
      'The connection failed: the host name did not resolve.',
    ],
    [
      'questions for the caller',
      new ConnectionInputRequiredError({ connectionName: NAME, inputRequests: {} }),
      'The connection needs answers from the caller before it can answer.',
    ],
  ])('%s', (_label, error, message) => {
    const seen = projected(error);
    expect(seen.message).toBe(message);
    expect(seen.details?.message).toBe(message);
  });
});

describe('the projected details hold only the facts that are there', () => {
  it.each([
    [
      'a refused URL at definition time: no operation, so no phase',
      new ConnectionUrlError({ connectionName: NAME, refusal: 'refused a URL' }),
      ['message', 'reason'],
    ],
    [
      'a refused URL during a call',
      new ConnectionUrlError({ connectionName: NAME, refusal: 'r', operation: 'openapi/call' }),
      ['message', 'reason', 'operation', 'phase'],
    ],
    [
      'a 500 without an operation or a Retry-After',
      new ConnectionRequestError({ connectionName: NAME, status: 500, body: '' }),
      ['message', 'reason', 'phase', 'upstreamStatus'],
    ],
    [
      'a 429 that asked to wait',
      new ConnectionRequestError({
        connectionName: NAME,
        operation: 'tools/call',
        status: 429,
        body: '',
        retryAfterMs: 2000,
      }),
      ['message', 'reason', 'operation', 'phase', 'upstreamStatus', 'retryAfterMs'],
    ],
    [
      'a malformed answer without a JSON-RPC code',
      new ConnectionProtocolError({ connectionName: NAME, violation: 'v' }),
      ['message', 'reason', 'phase'],
    ],
    [
      'questions for the caller during a call',
      new ConnectionInputRequiredError({
        connectionName: NAME,
        operation: 'tools/call',
        inputRequests: {},
      }),
      ['message', 'reason', 'operation', 'phase'],
    ],
  ])('%s', (_label, error, keys) => {
    expect(projected(error).keys).toEqual(keys);
  });

  it('names the wait a 429 asked for, and the status', () => {
    const error = new ConnectionRequestError({
      connectionName: NAME,
      status: 429,
      body: '',
      retryAfterMs: 2000,
    });
    expect(projected(error)).toMatchObject({
      code: 'CONNECTION_REQUEST_FAILED',
      retryable: true,
      details: { upstreamStatus: 429, retryAfterMs: 2000, reason: 'upstream-request-failed' },
    });
  });

  it('gives a hint only where the class has one', () => {
    const unauthorized = new ConnectionAuthorizationRequiredError({ connectionName: NAME });
    expect(projected(unauthorized).hint).toBe('Obtain a new credential before retrying.');
    const timeout = new ConnectionTimeoutError({ connectionName: NAME, timeoutMs: 1 });
    expect(projected(timeout).hint).toBeUndefined();
  });
});

describe('the host-facing message', () => {
  it('says nothing of an operation when there is none, and names it when there is', () => {
    expect(
      new ConnectionCredentialError({ connectionName: NAME, problem: 'header-break' }).message,
    ).toBe('Connection "upstream" refused its credential: its token contains CR, LF or NUL');
    expect(new ConnectionNetworkError({ connectionName: NAME, failure: 'reset' }).message).toBe(
      'Connection "upstream" failed on the network: the connection was reset',
    );
    expect(
      new ConnectionNetworkError({ connectionName: NAME, failure: 'tls', operation: 'endpoint' })
        .message,
    ).toBe('Connection "upstream" failed on the network: the TLS handshake failed during endpoint');
  });

  it('says what the Streamable HTTP POST was answered before legacy HTTP+SSE was tried', () => {
    const error = new ConnectionTimeoutError({
      connectionName: NAME,
      operation: 'endpoint',
      timeoutMs: 250,
      fallbackStatus: 405,
    });
    expect(error.message).toBe(
      'Connection "upstream" timed out after 250 ms (after its Streamable HTTP POST was answered 405, legacy HTTP+SSE was tried)',
    );
    expect(error.fallbackStatus).toBe(405);
    // The projection stays model-safe: the fallback is the host's to read.
    expect(projected(error).message).toBe('The connection timed out after 250 ms.');
  });

  it('keeps at most the excerpt of an upstream JSON-RPC message, and its data as sent', () => {
    const long = 'm'.repeat(MAX_ERROR_BODY_CHARS + 40);
    const error = new ConnectionProtocolError({
      connectionName: NAME,
      violation: 'answered with an error',
      rpcCode: -32000,
      rpcMessage: long,
      rpcData: { detail: 'x' },
    });
    expect(error.rpcMessage).toBe('m'.repeat(MAX_ERROR_BODY_CHARS));
    expect(error.rpcData).toEqual({ detail: 'x' });
    expect(
      new ConnectionProtocolError({ connectionName: NAME, violation: 'v' }).rpcMessage,
    ).toBeUndefined();
  });
});

describe('the capabilities a -32021 refusal requires (relayed by a gateway)', () => {
  const refusal = (rpcCode: number, rpcData: unknown) =>
    new ConnectionProtocolError({ connectionName: NAME, violation: 'v', rpcCode, rpcData })[
      MCP_REQUIRED_CAPABILITIES
    ]();

  it('reads data.requiredCapabilities of a -32021 refusal', () => {
    expect(refusal(-32021, { requiredCapabilities: { sampling: {} } })).toEqual({ sampling: {} });
  });

  it.each([
    ['another code with the same data', -32602, { requiredCapabilities: { sampling: {} } }],
    ['no data', -32021, undefined],
    ['null', -32021, { requiredCapabilities: null }],
    ['a list', -32021, { requiredCapabilities: ['sampling'] }],
    ['a string', -32021, { requiredCapabilities: 'sampling' }],
  ])('reads nothing from %s', (_label, code, data) => {
    expect(refusal(code, data)).toBeUndefined();
  });
});

describe('ConnectionInputRequiredError', () => {
  const inputRequests = { name: { method: 'elicitation/create', params: { message: 'Name?' } } };

  it('names itself, its code and what it waits for', () => {
    const error = new ConnectionInputRequiredError({
      connectionName: NAME,
      operation: 'tools/call',
      inputRequests,
      requestState: 'opaque-state',
    });
    expect(error.name).toBe('ConnectionInputRequiredError');
    expect(error.code).toBe('CONNECTION_INPUT_REQUIRED');
    expect(error.message).toBe(
      'Connection "upstream" needs answers from the caller before it can answer',
    );
    expect(ConnectionInputRequiredError.isInstance(error)).toBe(true);
    expect(projected(error)).toMatchObject({
      code: 'CONNECTION_INPUT_REQUIRED',
      retryable: false,
      details: { reason: 'input-required', operation: 'tools/call', phase: 'call' },
    });
    expect(projectToolError(error)?.status).toBe(409);
  });

  it('hands a gateway the questions and the state byte for byte, and no state key without one', () => {
    const withState = new ConnectionInputRequiredError({
      connectionName: NAME,
      inputRequests,
      requestState: 'opaque-state',
    });
    expect(withState[MCP_INPUT_REQUIRED]()).toEqual({
      inputRequests,
      requestState: 'opaque-state',
    });
    const without = new ConnectionInputRequiredError({ connectionName: NAME, inputRequests });
    expect(Object.keys(without[MCP_INPUT_REQUIRED]())).toEqual(['inputRequests']);
  });

  it('names the task whose questions they are, and hands its id on (decision 0051)', () => {
    const error = new ConnectionInputRequiredError({
      connectionName: NAME,
      operation: 'tools/call',
      inputRequests,
      taskId: 'task-7',
    });
    expect(error.message).toBe(
      'Connection "upstream" task task-7 needs answers from the caller before it can go on',
    );
    expect(error.taskId).toBe('task-7');
    expect(error[MCP_INPUT_REQUIRED]()).toEqual({ inputRequests, taskId: 'task-7' });
  });
});

describe('ConnectionTaskCreatedError', () => {
  const task = {
    taskId: 'task-9',
    status: 'working',
    createdAt: '2026-12-05T12:00:00Z',
    lastUpdatedAt: '2026-12-05T12:00:00Z',
    ttlMs: 60_000,
  };

  it('names itself and the task, hands the task to a gateway, and projects as not retryable', () => {
    const error = new ConnectionTaskCreatedError({
      connectionName: NAME,
      operation: 'tools/call',
      phase: 'call',
      task,
    });
    expect([error.name, error.code]).toEqual([
      'ConnectionTaskCreatedError',
      'CONNECTION_TASK_CREATED',
    ]);
    expect(error.message).toBe(
      'Connection "upstream" created task task-9 for a caller that polls it during tools/call',
    );
    expect(error[MCP_TASK_CREATED]()).toBe(task);
    expect(mcpCreatedTaskOf(error)).toBe(task);
    expect(ConnectionTaskCreatedError.isInstance(error)).toBe(true);
    expect(projected(error)).toMatchObject({
      code: 'CONNECTION_TASK_CREATED',
      retryable: false,
      message: 'The tool runs as a task that its caller polls.',
      details: {
        reason: 'task-created',
        status: 'working',
        operation: 'tools/call',
        phase: 'call',
      },
    });
    expect(projectToolError(error)?.status).toBe(502);
  });
});

describe('credentialProblemOf', () => {
  it.each([
    ['a token', 'abc', false, undefined],
    ['a token with ";" in a header', 'a;b', false, undefined],
    ['a token with ";" in a cookie', 'a;b', true, 'cookie-separator'],
    ['a cookie token without ";"', 'ab', true, undefined],
    ['a token with LF', 'a\nb', false, 'header-break'],
    ['a cookie token with CR and ";"', 'a\r;b', true, 'header-break'],
    ['a number', 7, false, 'not-a-string'],
  ])('%s', (_label, token, cookie, problem) => {
    expect(credentialProblemOf(token, { cookie })).toBe(problem);
  });
});

describe('network failures', () => {
  const coded = (code: string, message = 'raw') =>
    Object.assign(new Error(message), { code }) as Error;

  it.each<[NetworkFailure, boolean]>([
    ['refused', true],
    ['reset', true],
    ['closed', true],
    ['dns', false],
    ['tls', false],
    ['proxy', false],
    ['other', false],
  ])('%s is retryable: %s, in the rule and in the projection', (failure, retryable) => {
    expect(isRetryableNetworkFailure(failure)).toBe(retryable);
    const error = new ConnectionNetworkError({ connectionName: NAME, failure });
    expect(projected(error)).toMatchObject({
      code: 'CONNECTION_NETWORK_ERROR',
      retryable,
      details: { reason: 'network', failure },
    });
  });

  it('reads a proxy refusal only from undici abort code, whatever the message', () => {
    expect(networkFailureOf(coded('UND_ERR_ABORTED', 'Proxy response (407) !== 200'))).toBe(
      'proxy',
    );
    expect(networkFailureOf(coded('ECONNREFUSED', 'Proxy response (407) !== 200'))).toBe('refused');
    expect(networkFailureOf(coded('UND_ERR_ABORTED', 'aborted'))).toBeUndefined();
  });

  it('reads a TLS failure from an ERR_TLS_ or ERR_SSL_ prefix', () => {
    expect(networkFailureOf(coded('ERR_SSL_WRONG_VERSION_NUMBER'))).toBe('tls');
    expect(networkFailureOf(coded('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('tls');
    expect(networkFailureOf(coded('X_ERR_SSL_'))).toBeUndefined();
  });

  it('follows a cause chain four causes deep, and no deeper', () => {
    const wrap = (error: Error, times: number): Error =>
      times === 0 ? error : wrap(new Error('outer', { cause: error }), times - 1);
    expect(networkFailureOf(wrap(coded('ECONNRESET'), 4))).toBe('reset');
    expect(networkFailureOf(wrap(coded('ECONNRESET'), 5))).toBeUndefined();
  });

  it('reads "bad response" as a broken answer only on an undici socket error', () => {
    expect(wireFaultOf(coded('UND_ERR_SOCKET', 'bad response'))).toEqual({
      kind: 'http',
      fault: 'UND_ERR_SOCKET: bad response',
    });
    expect(wireFaultOf(coded('ECONNRESET', 'bad response'))).toEqual({
      kind: 'network',
      failure: 'reset',
    });
  });
});
