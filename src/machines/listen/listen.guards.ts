/**
 * The named guards of `listen`. Each is a total predicate over typed params the chart maps from
 * the event or context at the transition. Pure: no I/O.
 */
import { credentialGuards } from '../credentials.js';
import { isUnofferedAnswer } from './listen.policy.js';
import type { ListenFailure, ListenSession } from './listen.types.js';

/** The connects in a row that failed, and how many may. */
export interface FailureParams {
  readonly failures: number;
  readonly maxFailures: number;
}

/** `listen`'s guards, by the names its chart uses. */
export const listenGuards = {
  ...credentialGuards,
  /** The server offers no tool list changes: reconnecting cannot mend it. */
  isUnoffered: (_: unknown, { failure }: { readonly failure: ListenFailure }): boolean =>
    failure.unoffered === true || isUnofferedAnswer(failure.status, failure.rpcCode),
  /** Another connect may fail before the stream is given up. */
  hasFailuresLeft: (_: unknown, { failures, maxFailures }: FailureParams): boolean =>
    failures + 1 < maxFailures,
  /** The stopped stream opened a session of its own, which is ended before going on. */
  holdsSession: (
    _: unknown,
    { session }: { readonly session: ListenSession | undefined },
  ): boolean => session !== undefined,
  /** The stream listened before: changes may have been missed while it was down. */
  isReopened: (_: unknown, { opened }: { readonly opened: number }): boolean => opened > 0,
};
