/** The guard of `retry`, one table over the params the chart maps. */
import { describe, expect, it } from 'vitest';
import {
  retryGuards as guards,
  type MayRetryParams,
} from '../../../src/machines/retry/retry.guards.js';
import {
  ConnectionNetworkError,
  ConnectionRequestError,
  ConnectionTimeoutError,
  operationScope,
} from '../../../src/wire/index.js';

const call = operationScope('g', 'tools/call');
const refused = new ConnectionNetworkError({ ...call, failure: 'refused' });
const reset = new ConnectionNetworkError({ ...call, failure: 'reset' });
const busy = (retryAfterMs?: number) =>
  new ConnectionRequestError({ ...call, status: 503, body: '', retryAfterMs });

const base: MayRetryParams = {
  error: refused,
  attempt: 1,
  attempts: 3,
  repeatable: false,
  now: 0,
  deadlineAt: 10_000,
};

describe('mayRetry', () => {
  it.each<[string, Partial<MayRetryParams>, boolean]>([
    ['a refused connection, attempts left', {}, true],
    ['the last attempt', { attempt: 3 }, false],
    ['a reset of a call that is not repeatable', { error: reset }, false],
    ['a reset of a repeatable call', { error: reset, repeatable: true }, true],
    [
      'a 503 of a repeatable call whose Retry-After fits',
      { error: busy(9_999), repeatable: true },
      true,
    ],
    [
      'a 503 whose Retry-After reaches the deadline',
      { error: busy(10_000), repeatable: true },
      false,
    ],
    // The backoff's longest wait after the first attempt is 200 ms.
    ['a refusal 200 ms before the deadline', { now: 9_800 }, false],
    ['a refusal 201 ms before the deadline', { now: 9_799 }, true],
    [
      'a timeout, never',
      { error: new ConnectionTimeoutError({ ...call, timeoutMs: 5 }), repeatable: true },
      false,
    ],
  ])('%s -> %s', (_label, change, expected) => {
    expect(guards.mayRetry(undefined, { ...base, ...change })).toBe(expected);
  });
});

describe('extendsDeadline', () => {
  it.each<[string, number, boolean]>([
    ['a later deadline', 10_001, true],
    ['the same deadline', 10_000, false],
    ['an earlier deadline', 9_999, false],
  ])('%s -> %s', (_label, deadlineAt, expected) => {
    expect(guards.extendsDeadline(undefined, { deadlineAt, current: 10_000 })).toBe(expected);
  });
});
