/**
 * The named guards of the `wait` machine. Each one is a total predicate over typed params that the
 * chart maps from the event or context at the transition; the rules behind them are in
 * `wait.policy.ts`. Pure: no I/O.
 */
import { isSleepEndingAtDeadline } from './wait.policy.js';

/** Every guard of the chart, by the name the chart and the diagrams use. */
export const waitGuards = {
  /**
   * The poll's state satisfied the application's `done` predicate. The poll actor applies the
   * predicate (it is application code); the guard only reads its verdict, so the chart shows it.
   */
  isDoneState: (_: unknown, { done }: { readonly done: boolean }): boolean => done,

  /** At least one poll completed, so a timeout can return the last state. */
  hasState: (_: unknown, { polls }: { readonly polls: number }): boolean => polls > 0,

  /** The sleep that just ended reached the overall deadline, so no further poll starts. */
  isLastSleep: (
    _: unknown,
    { sleepUntil, deadlineAt }: { readonly sleepUntil: number; readonly deadlineAt: number },
  ): boolean => isSleepEndingAtDeadline(sleepUntil, deadlineAt),
};
