/**
 * Deadlines that span several states are absolute times in context; each state's named delay is
 * the time remaining. Pure: no I/O, no clock (time is passed in).
 */

/** Milliseconds left before an absolute deadline, never negative. */
export function remainingMs(deadlineAt: number, now: number): number {
  return Math.max(0, deadlineAt - now);
}
