/**
 * Pure timing rules of the `wait` machine (ADR 0081). Pure: no I/O, no clock; every
 * time is passed in as epoch milliseconds.
 */

/** Default sleep schedule between polls, in seconds; the last entry repeats. */
export const DEFAULT_WAIT_BACKOFF_SECONDS: readonly number[] = Object.freeze([2, 3, 5, 5, 8, 10]);

/** Default overall deadline of one wait, in milliseconds (600 s). */
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

/**
 * The sleep after poll number `attempt` (0-based), in milliseconds: `backoff[attempt]` seconds,
 * the last entry repeating. An empty schedule falls back to the default one; negative or
 * non-finite entries count as 0.
 */
export function backoffDelayMs(backoff: readonly number[], attempt: number): number {
  const schedule = backoff.length > 0 ? backoff : DEFAULT_WAIT_BACKOFF_SECONDS;
  const index = Math.min(Math.max(0, Math.floor(attempt)), schedule.length - 1);
  const seconds = schedule[index] ?? 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * When the next poll starts after a poll that finished at `finishedAt`: the backoff later, but
 * never after the deadline (the sleep is clamped to the remaining time).
 */
export function nextPollAt(
  finishedAt: number,
  backoff: readonly number[],
  attempt: number,
  deadlineAt: number,
): number {
  return Math.min(finishedAt + backoffDelayMs(backoff, attempt), Math.max(finishedAt, deadlineAt));
}

/** True when a sleep that ends at `sleepUntil` reaches the deadline, so no further poll starts. */
export function isSleepEndingAtDeadline(sleepUntil: number, deadlineAt: number): boolean {
  return sleepUntil >= deadlineAt;
}
