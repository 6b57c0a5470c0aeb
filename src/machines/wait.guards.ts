/** Named guards of the `wait` machine; each is a thin reading of a pure rule in `wait.policy.ts`. */

import { isSleepEndingAtDeadline } from './wait.policy.js';
import type { WaitContext } from './wait.types.js';

/** The poll's state satisfied the application's `done` predicate. */
export function isDoneSnapshot(_: unknown, params: { readonly done: boolean }): boolean {
  return params.done;
}

/** At least one poll completed, so a timeout can return the last state. */
export function hasSnapshot({ context }: { readonly context: WaitContext }): boolean {
  return context.polls > 0;
}

/** The sleep that just ended reached the overall deadline, so no further poll starts. */
export function isLastSleep({ context }: { readonly context: WaitContext }): boolean {
  return isSleepEndingAtDeadline(context.sleepUntil, context.deadlineAt);
}
