/** The guards of `wait`, one table per guard, over the params the chart maps. */
import { describe, expect, it } from 'vitest';
import { waitGuards as guards } from '../../../src/machines/wait/wait.guards.js';

describe('isDoneState', () => {
  it.each([
    [true, true],
    [false, false],
  ])('done %s -> %s', (done, expected) => {
    expect(guards.isDoneState(undefined, { done })).toBe(expected);
  });
});

describe('hasState', () => {
  it.each([
    [0, false],
    [1, true],
    [7, true],
  ])('%i completed polls -> %s', (polls, expected) => {
    expect(guards.hasState(undefined, { polls })).toBe(expected);
  });
});

describe('isLastSleep', () => {
  it.each([
    ['a sleep ending before the deadline', 9_999, 10_000, false],
    ['a sleep ending at the deadline', 10_000, 10_000, true],
    ['a sleep clamped past the deadline', 10_001, 10_000, true],
  ])('%s -> %s', (_label, sleepUntil, deadlineAt, expected) => {
    expect(guards.isLastSleep(undefined, { sleepUntil, deadlineAt })).toBe(expected);
  });
});
