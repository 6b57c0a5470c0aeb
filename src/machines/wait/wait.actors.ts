/** The I/O seam of the `wait` machine: the application's poll, wrapped as a promise actor. */
import { fromPromise } from 'xstate';
import type { WaitPollInput, WaitPollOutput } from './wait.types.js';

/** What the application's poll receives. */
export interface WaitPollContext {
  /** 0-based number of this poll. */
  readonly attempt: number;
  /** Aborted on caller cancellation or when the overall deadline passes during this poll. */
  readonly signal: AbortSignal;
}

/** Dependencies of the `wait` actors. */
export interface WaitActorDependencies {
  /** Observes the current state once. */
  poll(context: WaitPollContext): unknown;
  /** True when a state is final. */
  isDone(snapshot: unknown): boolean;
  /** Epoch-millisecond clock; default `Date.now`. */
  readonly now?: () => number;
}

/** Builds the `wait` machine's actors from the application's poll; pass to `machine.provide`. */
export function makeWaitActors(deps: WaitActorDependencies) {
  const now = deps.now ?? Date.now;
  return {
    poll: fromPromise<WaitPollOutput, WaitPollInput>(async ({ input, signal }) => {
      const snapshot = await deps.poll({ attempt: input.attempt, signal });
      return { snapshot, done: deps.isDone(snapshot), finishedAt: now() };
    }),
  };
}

/** The default `poll` actor: it fails, because a wait without the application's poll is a bug. */
export const missingWaitPoll = fromPromise<WaitPollOutput, WaitPollInput>(async () => {
  throw new Error('The wait machine needs a poll actor: provide makeWaitActors({ poll, isDone })');
});
