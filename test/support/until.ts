/**
 * Waiting for a state a real server and client reach on their own: polled every 10 ms, with a
 * generous deadline, so a test asserts the state reached and not how fast it was reached.
 */

/** The generous deadline of {@link until}. */
export const UNTIL_DEADLINE_MS = 5_000;

/** Polls `condition` every 10 ms until it holds; fails naming `what` after the deadline. */
export async function until(
  what: string,
  condition: () => boolean,
  deadlineMs = UNTIL_DEADLINE_MS,
): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > deadlineMs) throw new Error(`not reached in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
