import { describe, expect, it } from 'vitest';
import { assertTimeoutMs, MAX_TIMER_MS, remainingMs } from '../../src/machines/deadline.js';

describe('assertTimeoutMs', () => {
  it.each([1, 250, MAX_TIMER_MS])('accepts %d ms and returns it', (value) => {
    expect(assertTimeoutMs(value, 'timeoutMs')).toBe(value);
  });

  it.each([
    [0, '0'],
    [-5, '-5'],
    [1.5, '1.5'],
    [MAX_TIMER_MS + 1, String(MAX_TIMER_MS + 1)],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    ['100', 'string'],
    [undefined, 'undefined'],
  ])('refuses %j with a RangeError naming the option, the range and what it got', (value, got) => {
    expect(() => assertTimeoutMs(value, 'requestTimeoutMs')).toThrow(
      new RangeError(
        `requestTimeoutMs must be a positive integer number of milliseconds no greater than ${MAX_TIMER_MS} (the timer range); got ${got}`,
      ),
    );
  });
});

describe('remainingMs', () => {
  it.each([
    [1_000, 400, 600],
    [1_000, 1_000, 0],
    [1_000, 1_500, 0],
    [MAX_TIMER_MS + 1_000, 1_000, MAX_TIMER_MS],
    [MAX_TIMER_MS + 1_001, 1_000, MAX_TIMER_MS],
  ])('deadline %d at %d leaves %d ms', (deadlineAt, now, left) => {
    expect(remainingMs(deadlineAt, now)).toBe(left);
  });
});
