/**
 * The rules of `listen`, pure: its defaults, the reconnect backoff, and which failures say the
 * server offers no list changes at all. Time is passed in.
 */

import { JSON_RPC_ERROR } from '../../binding/kernel/rpc-codes.js';

/** How long a burst of list-changed notifications is gathered into one change, in ms. */
export const DEFAULT_LISTEN_DEBOUNCE_MS = 100;
/** How many connects in a row may fail before the stream is given up. */
export const DEFAULT_LISTEN_MAX_FAILURES = 5;
/** The first wait before a reconnect, doubled after each failure in a row. */
export const LISTEN_BACKOFF_BASE_MS = 1_000;
/** The longest wait before a reconnect. */
export const LISTEN_BACKOFF_MAX_MS = 30_000;

/**
 * The wait before the next connect after `failures` failed connects in a row: 1 s after a stream
 * that ended cleanly or a first failure, then doubled, at most 30 s.
 */
export function reconnectDelayMs(failures: number): number {
  const doublings = Math.max(0, failures - 1);
  return Math.min(LISTEN_BACKOFF_MAX_MS, LISTEN_BACKOFF_BASE_MS * 2 ** Math.min(doublings, 16));
}

/**
 * Whether a refused listen request says the server has no list-changed stream to give: a 404 or
 * 405 (no such route or method), or a JSON-RPC "method not found". Trying again cannot mend it.
 */
export function isUnofferedAnswer(
  status: number | undefined,
  rpcCode: number | undefined,
): boolean {
  return status === 404 || status === 405 || rpcCode === JSON_RPC_ERROR.methodNotFound;
}

/** The operation a stream's failures are scoped to, by its wire. */
export function listenOperationOf(
  wire: 'stateless' | 'session' | 'sse',
): 'subscriptions/listen' | 'standalone-stream' | 'endpoint' {
  return wire === 'stateless'
    ? 'subscriptions/listen'
    : wire === 'session'
      ? 'standalone-stream'
      : 'endpoint';
}

/** How long the `DELETE` that ends a listen session may take (`SESSION_END_DEADLINE`). */
export const LISTEN_SESSION_END_MS = 2_000;
