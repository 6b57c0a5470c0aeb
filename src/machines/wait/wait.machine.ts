/**
 * `wait` (ADR 0081): poll, then sleep on a backoff schedule, until the application's
 * `done` accepts a state, the overall deadline passes, or the caller cancels.
 *
 * The overall deadline is an absolute time in context; `polling` waits at most the time remaining
 * until it, and a sleep is clamped to it. Leaving `polling` aborts the poll's signal, so a deadline
 * or a cancellation interrupts the poll in flight, and leaving `sleeping` cancels its timer, so no
 * later poll happens.
 */
import { assign, setup } from 'xstate';
import { errorOf, reasonOf, runFailureActions } from '../connection-outcomes.js';
import { remainingMs } from '../deadline.js';
import { missingWaitPoll } from './wait.actors.js';
import { waitGuards } from './wait.guards.js';
import {
  DEFAULT_WAIT_BACKOFF_SECONDS,
  DEFAULT_WAIT_TIMEOUT_MS,
  nextPollAt,
} from './wait.policy.js';
import { WaitTimeoutError } from './wait.timeout-error.js';
import type {
  WaitContext,
  WaitEvent,
  WaitMachineInput,
  WaitMachineOutput,
  WaitPollOutput,
} from './wait.types.js';

const pollOutput = ({ event }: { readonly event: { readonly output: WaitPollOutput } }) => ({
  output: event.output,
});
const pollsOf = ({ context }: { readonly context: WaitContext }) => ({ polls: context.polls });

/** `wait`'s setup: every implementation by name. */
export const waitSetup = setup({
  types: {} as {
    input: WaitMachineInput;
    context: WaitContext;
    events: WaitEvent;
    output: WaitMachineOutput;
  },
  actors: { poll: missingWaitPoll },
  actions: {
    ...runFailureActions<WaitContext, WaitEvent>(),
    recordState: assign(({ context }, params: { output: WaitPollOutput }) => ({
      snapshot: params.output.snapshot,
      polls: context.polls + 1,
      lastPollAt: params.output.finishedAt,
      sleepUntil: nextPollAt(
        params.output.finishedAt,
        context.backoffSeconds,
        context.polls,
        context.deadlineAt,
      ),
    })),
    succeed: assign(({ context }, params: { output: WaitPollOutput }) => ({
      outcome: {
        ok: true,
        snapshot: params.output.snapshot,
        timedOut: false,
        polls: context.polls + 1,
      } as const,
    })),
    timeOutWithState: assign(({ context }) => ({
      outcome: {
        ok: true,
        snapshot: context.snapshot,
        timedOut: true,
        polls: context.polls,
      } as const,
    })),
    failWithWaitTimeout: assign(({ context }) => ({
      outcome: { ok: false, error: new WaitTimeoutError(context.timeoutMs) } as const,
    })),
    // Wait holds no handle of its own: the poll is stopped (its signal aborted) and the timers are
    // cancelled by leaving their states. The named hook keeps the shared teardown invariant.
    teardown: () => {},
  },
  guards: waitGuards,
  delays: {
    POLL_DEADLINE: ({ context }) => remainingMs(context.deadlineAt, Date.now()),
    BACKOFF_SLEEP: ({ context }) => remainingMs(context.sleepUntil, context.lastPollAt),
  },
});

/** The `wait` machine; provide its `poll` actor with `makeWaitActors`. */
export const waitMachine = waitSetup.createMachine({
  id: 'wait',
  context: ({ input }) => {
    const startedAt = input.startedAt ?? Date.now();
    const timeoutMs = input.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    return {
      backoffSeconds: input.backoffSeconds ?? DEFAULT_WAIT_BACKOFF_SECONDS,
      timeoutMs,
      deadlineAt: startedAt + timeoutMs,
      polls: 0,
      snapshot: undefined,
      lastPollAt: startedAt,
      sleepUntil: startedAt,
      outcome: undefined,
    };
  },
  initial: 'polling',
  // The caller's abort, from any state: the outcome is its exact reason.
  on: { CANCEL: { target: '.closed', actions: { type: 'failCancelled', params: reasonOf } } },
  states: {
    // Observe the state once; the deadline or a cancellation aborts the poll in flight.
    polling: {
      meta: { operation: 'poll' },
      invoke: {
        id: 'poll',
        src: 'poll',
        input: ({ context }) => ({ attempt: context.polls, deadlineAt: context.deadlineAt }),
        onDone: [
          {
            guard: {
              type: 'isDoneState',
              params: ({ event }) => ({ done: event.output.done }),
            },
            target: 'closed',
            actions: { type: 'succeed', params: pollOutput },
          },
          { target: 'sleeping', actions: { type: 'recordState', params: pollOutput } },
        ],
        onError: {
          target: 'closed',
          actions: { type: 'failWithError', params: errorOf },
        },
      },
      after: {
        POLL_DEADLINE: [
          {
            guard: { type: 'hasState', params: pollsOf },
            target: 'closed',
            actions: 'timeOutWithState',
          },
          { target: 'closed', actions: 'failWithWaitTimeout' },
        ],
      },
    },
    // Back off before the next poll; the sleep never runs past the deadline.
    sleeping: {
      meta: { operation: 'sleep' },
      after: {
        BACKOFF_SLEEP: [
          {
            guard: {
              type: 'isLastSleep',
              params: ({ context }) => ({
                sleepUntil: context.sleepUntil,
                deadlineAt: context.deadlineAt,
              }),
            },
            target: 'closed',
            actions: 'timeOutWithState',
          },
          { target: 'polling' },
        ],
      },
    },
    // Final: the outcome was decided on the edge into it.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('wait reached its final state without an outcome'),
    },
});
