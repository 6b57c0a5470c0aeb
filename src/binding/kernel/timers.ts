/**
 * The one timer fact every layer shares: the longest delay Node's timers honour. Pure.
 */

/** Largest delay Node's timers honour; a larger one is clamped to 1 ms and fires almost at once. */
export const MAX_TIMER_MS = 2_147_483_647;
