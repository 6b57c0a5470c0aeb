/** The rules of the retry policy: what may be tried again, when it is safe, and the waits. */
import { describe, expect, it } from 'vitest';
import {
  isRetryableFailure,
  nominalRetryDelayMs,
  retryDelayMs,
} from '../../../src/machines/retry/retry.policy.js';
import {
  ConnectionNetworkError,
  type ConnectionOperation,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionTimeoutError,
  type NetworkFailure,
  operationScope,
} from '../../../src/wire/index.js';

const network = (failure: NetworkFailure, operation: ConnectionOperation = 'tools/call') =>
  new ConnectionNetworkError({ ...operationScope('p', operation), failure });
const status = (
  code: number,
  operation: ConnectionOperation = 'tools/call',
  retryAfterMs?: number,
) =>
  new ConnectionRequestError({
    ...operationScope('p', operation),
    status: code,
    body: '',
    retryAfterMs,
  });

describe('isRetryableFailure', () => {
  it.each<[string, unknown, boolean, boolean]>([
    // [label, failure, retried when not repeatable, retried when repeatable]
    ['refused (never received)', network('refused'), true, true],
    ['reset during the call', network('reset'), false, true],
    ['closed early during the call', network('closed'), false, true],
    ['reset during initialize (the call unsent)', network('reset', 'initialize'), true, true],
    [
      'closed after notifications/initialized',
      network('closed', 'notifications/initialized'),
      true,
      true,
    ],
    ['reset waiting for the SSE endpoint', network('reset', 'endpoint'), true, true],
    ['a DNS failure', network('dns'), false, false],
    ['a TLS failure', network('tls'), false, false],
    ['429 during the call', status(429), false, true],
    ['503 during initialize', status(503, 'initialize'), true, true],
    ['502 of an OpenAPI call', status(502, 'openapi/call'), false, true],
    ['500', status(500), false, false],
    ['403', status(403), false, false],
    [
      'a timeout',
      new ConnectionTimeoutError({ ...operationScope('p', 'tools/call'), timeoutMs: 1 }),
      false,
      false,
    ],
    [
      'a protocol error',
      new ConnectionProtocolError({ ...operationScope('p', 'tools/call'), violation: 'x' }),
      false,
      false,
    ],
    ['a plain error', new Error('boom'), false, false],
    // A request of a call that became a task: the task may still run, so the call is not sent
    // again, even for a tool safe to repeat and a request the server never received.
    ['reset polling a task', network('reset', 'tasks/get'), false, false],
    ['refused polling a task', network('refused', 'tasks/get'), false, false],
    ['503 updating a task', status(503, 'tasks/update'), false, false],
    ['closed holding tasks/result', network('closed', 'tasks/result'), false, false],
  ])('%s: %s, repeatable %s', (_label, error, once, repeatable) => {
    expect([isRetryableFailure(error, false), isRetryableFailure(error, true)]).toEqual([
      once,
      repeatable,
    ]);
  });
});

describe('the wait before the next attempt', () => {
  it('doubles from 200 ms per attempt up to 5 s when the server named none', () => {
    expect(
      [1, 2, 3, 4, 5, 6, 9].map((attempt) => nominalRetryDelayMs(network('refused'), attempt)),
    ).toEqual([200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
  });

  it('takes between half of the backoff and all of it (equal jitter)', () => {
    expect(
      [0, 0.5, 0.999_999].map((random) => retryDelayMs(network('refused'), 3, random)),
    ).toEqual([400, 600, 800]);
  });

  it("is the server's Retry-After exactly, never jittered", () => {
    const busy = status(429, 'tools/call', 7_000);
    expect([
      nominalRetryDelayMs(busy, 1),
      retryDelayMs(busy, 1, 0),
      retryDelayMs(busy, 4, 0.9),
    ]).toEqual([7_000, 7_000, 7_000]);
    expect(retryDelayMs(status(429, 'tools/call', 0), 2, 0.5)).toBe(0);
  });
});
