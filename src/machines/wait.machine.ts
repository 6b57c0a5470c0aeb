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
import { remainingMs } from './deadline.js';
import { missingWaitPoll } from './wait.actors.js';
import { waitGuards } from './wait.guards.js';
import {
  DEFAULT_WAIT_BACKOFF_SECONDS,
  DEFAULT_WAIT_TIMEOUT_MS,
  nextPollAt,
} from './wait.policy.js';
import type {
  WaitContext,
  WaitEvent,
  WaitMachineInput,
  WaitMachineOutput,
  WaitPollOutput,
} from './wait.types.js';
import { WaitTimeoutError } from './wait-timeout-error.js';

const pollOutput = ({ event }: { readonly event: { readonly output: WaitPollOutput } }) => ({
  output: event.output,
});
const pollsOf = ({ context }: { readonly context: WaitContext }) => ({ polls: context.polls });

/** The `wait` machine; provide its `poll` actor with `makeWaitActors`. */
export const waitMachine = setup({
  types: {} as {
    input: WaitMachineInput;
    context: WaitContext;
    events: WaitEvent;
    output: WaitMachineOutput;
  },
  actors: { poll: missingWaitPoll },
  actions: {
    recordSnapshot: assign(({ context }, params: { output: WaitPollOutput }) => ({
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
    completeWithSnapshot: assign(({ context }, params: { output: WaitPollOutput }) => ({
      result: {
        ok: true,
        snapshot: params.output.snapshot,
        timedOut: false,
        polls: context.polls + 1,
      } as const,
    })),
    timeOutWithSnapshot: assign(({ context }) => ({
      result: {
        ok: true,
        snapshot: context.snapshot,
        timedOut: true,
        polls: context.polls,
      } as const,
    })),
    failWithWaitTimeout: assign(({ context }) => ({
      result: { ok: false, error: new WaitTimeoutError(context.timeoutMs) } as const,
    })),
    failWithPollError: assign((_, params: { error: unknown }) => ({
      result: { ok: false, error: params.error } as const,
    })),
    cancelWithReason: assign(({ event }) => ({
      result: { ok: false, error: event.reason } as const,
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
}).createMachine({
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
      result: undefined,
    };
  },
  initial: 'polling',
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
              type: 'isDoneSnapshot',
              params: ({ event }) => ({ done: event.output.done }),
            },
            target: 'closed',
            actions: { type: 'completeWithSnapshot', params: pollOutput },
          },
          { target: 'sleeping', actions: { type: 'recordSnapshot', params: pollOutput } },
        ],
        onError: {
          target: 'closed',
          actions: {
            type: 'failWithPollError',
            params: ({ event }) => ({ error: event.error }),
          },
        },
      },
      after: {
        POLL_DEADLINE: [
          {
            guard: { type: 'hasSnapshot', params: pollsOf },
            target: 'closed',
            actions: 'timeOutWithSnapshot',
          },
          { target: 'closed', actions: 'failWithWaitTimeout' },
        ],
      },
      on: { CANCEL: { target: 'closed', actions: 'cancelWithReason' } },
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
            actions: 'timeOutWithSnapshot',
          },
          { target: 'polling' },
        ],
      },
      on: { CANCEL: { target: 'closed', actions: 'cancelWithReason' } },
    },
    // Final: the outcome was decided on the edge into it.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.result ?? { ok: false, error: new Error('wait closed without a result') },
});
