import { describe, expect, it } from 'vitest';
import { remainingMs } from '../../../src/machines/deadline.js';
import {
  backoffDelayMs,
  DEFAULT_WAIT_BACKOFF_SECONDS,
  DEFAULT_WAIT_TIMEOUT_MS,
  isSleepEndingAtDeadline,
  nextPollAt,
} from '../../../src/machines/wait/wait.policy.js';

describe('backoffDelayMs', () => {
  it.each([
    [0, 2_000],
    [1, 3_000],
    [2, 5_000],
    [3, 5_000],
    [4, 8_000],
    [5, 10_000],
    [6, 10_000],
    [50, 10_000],
  ])('sleeps the default schedule after poll %i: %i ms', (attempt, expected) => {
    expect(backoffDelayMs(DEFAULT_WAIT_BACKOFF_SECONDS, attempt)).toBe(expected);
  });

  it('repeats the last entry of a custom schedule', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelayMs([1, 4], attempt))).toEqual([
      1_000, 4_000, 4_000, 4_000,
    ]);
  });

  it('falls back to the default schedule when the schedule is empty', () => {
    expect(backoffDelayMs([], 0)).toBe(2_000);
  });

  it('treats negative and non-finite entries as no sleep', () => {
    expect([backoffDelayMs([-1], 0), backoffDelayMs([Number.NaN], 0)]).toEqual([0, 0]);
  });

  it('defaults to a 600 s timeout', () => {
    expect(DEFAULT_WAIT_TIMEOUT_MS).toBe(600_000);
  });
});

describe('remainingMs', () => {
  it('is the time left until the deadline, never negative', () => {
    expect([remainingMs(1_000, 400), remainingMs(1_000, 1_000), remainingMs(1_000, 1_500)]).toEqual(
      [600, 0, 0],
    );
  });
});

describe('nextPollAt', () => {
  it('is the backoff after the poll when it fits before the deadline', () => {
    expect(nextPollAt(1_000, [2], 0, 10_000)).toBe(3_000);
  });

  it('is clamped to the deadline', () => {
    expect(nextPollAt(9_000, [2], 0, 10_000)).toBe(10_000);
  });

  it('is the poll time itself when the deadline already passed', () => {
    expect(nextPollAt(12_000, [2], 0, 10_000)).toBe(12_000);
  });
});

describe('isSleepEndingAtDeadline', () => {
  it('is true when the sleep reaches the deadline and false before it', () => {
    expect([
      isSleepEndingAtDeadline(10_000, 10_000),
      isSleepEndingAtDeadline(9_999, 10_000),
    ]).toEqual([true, false]);
  });
});
