/**
 * The named guards of `retry`: total predicates over the params the chart maps from the failed
 * attempt and the context. The rules behind them are in `retry.policy.ts`. Pure.
 */
import { fitsBeforeDeadline, isRetryableFailure, nominalRetryDelayMs } from './retry.policy.js';

/** What `mayRetry` is asked about: the failure, the attempts, and the time left. */
export interface MayRetryParams {
  readonly error: unknown;
  readonly attempt: number;
  readonly attempts: number;
  readonly repeatable: boolean;
  readonly now: number;
  readonly deadlineAt: number;
}

/** What `extendsDeadline` is asked about: the deadline an attempt asks for, and the one in force. */
export interface ExtendsDeadlineParams {
  readonly deadlineAt: number;
  readonly current: number;
}

/** Every guard of the chart, by the name the chart and the diagrams use. */
export const retryGuards = {
  /**
   * Another attempt is allowed and worth making: attempts are left, the failure is one that
   * another attempt may mend and that is safe to repeat, and the wait before it (the server's
   * `Retry-After`, else the backoff at its longest) ends before the operation's deadline.
   */
  mayRetry: (_: unknown, params: MayRetryParams): boolean =>
    params.attempt < params.attempts &&
    isRetryableFailure(params.error, params.repeatable) &&
    fitsBeforeDeadline(
      params.now,
      nominalRetryDelayMs(params.error, params.attempt),
      params.deadlineAt,
    ),
  /**
   * The attempt's operation may now run past the policy's deadline (its call became a task, whose
   * own deadline is later): a deadline is only ever moved later.
   */
  extendsDeadline: (_: unknown, params: ExtendsDeadlineParams): boolean =>
    params.deadlineAt > params.current,
};
