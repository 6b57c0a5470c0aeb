/**
 * The I/O seam of `retry`: one attempt, a callback actor that runs the operation's own machine
 * through the input's `runAttempt` and reports how it ended. The chart forwards `CANCEL` to it
 * (a deadline or the caller's abort), so the attempt tears down as it would alone (its
 * cancellation notice, its session's end) before it reports.
 */
import { fromCallback } from 'xstate';
import type { CancelEvent } from '../run-machine.js';
import type { AttemptEvent, AttemptInput } from './retry.types.js';

/** The `attempt` actor: the operation run once under a signal that `CANCEL` aborts. */
export const attemptActor = fromCallback<CancelEvent, AttemptInput, AttemptEvent>(
  ({ input, sendBack, receive }) => {
    const controller = new AbortController();
    let stopped = false;
    let settled = false;
    receive((event) => {
      if (event.type === 'CANCEL') controller.abort(event.reason);
    });
    // Started once the chart has entered `attempt`, so its transition is recorded before the
    // attempt's own.
    queueMicrotask(() => {
      if (stopped) return;
      const extend = (deadlineAt: number): void => {
        if (!stopped && !settled) sendBack({ type: 'ATTEMPT_EXTENDED', deadlineAt });
      };
      input.runAttempt(controller.signal, extend).then(
        (value) => {
          settled = true;
          if (!stopped) sendBack({ type: 'ATTEMPT_SUCCEEDED', value });
        },
        (error: unknown) => {
          settled = true;
          if (!stopped) sendBack({ type: 'ATTEMPT_FAILED', error });
        },
      );
    });
    return () => {
      // Stopped: nothing more reaches the chart, and an attempt still running is told to stop.
      stopped = true;
      if (!settled) controller.abort(new Error('retry: the attempt was stopped'));
    };
  },
);

/** The actors of `retry`. It has no dependency of its own: an attempt brings its operation. */
export function makeRetryActors() {
  return { attempt: attemptActor };
}
