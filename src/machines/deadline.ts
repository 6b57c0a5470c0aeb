/**
 * Deadlines and timer delays. A deadline that spans several states is an absolute time in context;
 * each state's named delay is the time remaining. Pure: no I/O, no clock (time is passed in).
 */

import { MAX_TIMER_MS } from '../binding/kernel/timers.js';

export { MAX_TIMER_MS };

/** A timeout: a safe integer with `0 < t <= MAX_TIMER_MS`; else a RangeError naming `option`. */
export function assertTimeoutMs(value: unknown, option: string): number {
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value <= 0 ||
    value > MAX_TIMER_MS
  ) {
    const got = typeof value === 'number' ? String(value) : typeof value;
    throw new RangeError(
      `${option} must be a positive integer number of milliseconds no greater than ${MAX_TIMER_MS} (the timer range); got ${got}`,
    );
  }
  return value;
}

/**
 * Milliseconds left before an absolute deadline, never negative, and never past the longest delay
 * a timer honours: Node fires a longer one after 1 ms, so a deadline beyond it (a task's backstop,
 * a retry policy's deadline moved to it) waits the longest delay instead.
 */
export function remainingMs(deadlineAt: number, now: number): number {
  return Math.min(MAX_TIMER_MS, Math.max(0, deadlineAt - now));
}
