/**
 * `retry`: a connection's opt-in retry policy (`retry: { attempts }`), around one operation. Each
 * attempt is the operation's own machine run to its end (`attempt`); a failure that another
 * attempt may mend, and that is safe to repeat, waits in `backingOff` (the server's
 * `Retry-After`, else a jittered backoff) and tries again. One deadline covers every attempt and
 * every wait: the first attempt's start plus the operation's budget, moved later only when an
 * attempt's call became a task (its own, later deadline). The deadline and the
 * caller's abort reach an attempt in flight as its `CANCEL`, and `stopping` waits, bounded, for
 * its teardown to finish, so the server still hears the cancellation.
 */
import { assign, sendTo, setup } from 'xstate';
import { operationScope } from '../../wire/index.js';
import { connectionFailureActions, reasonOf, type With } from '../connection-outcomes.js';
import { remainingMs } from '../deadline.js';
import { makeRetryActors } from './retry.actors.js';
import { retryGuards } from './retry.guards.js';
import { ATTEMPT_STOP_TIMEOUT_MS, retryDelayMs } from './retry.policy.js';
import type { RetryContext, RetryEvent, RetryInput, RetryOutput } from './retry.types.js';

type WithContext = { readonly context: RetryContext };

const CLOSED = '#retry.closed';

const failureOf = ({ event }: With<{ readonly error?: unknown }>) => ({ error: event.error });
const resultOf = ({ event }: With<{ readonly value?: unknown }>) => ({ value: event.value });
const budgetOf = ({ context }: WithContext) => ({ timeoutMs: context.budgetMs });

/** `retry`'s setup: every implementation by name. */
export const retrySetup = setup({
  types: {} as {
    context: RetryContext;
    events: RetryEvent;
    input: RetryInput;
    output: RetryOutput;
  },
  actors: makeRetryActors(),
  guards: retryGuards,
  delays: {
    OPERATION_DEADLINE: ({ context }) => remainingMs(context.deadlineAt, Date.now()),
    RETRY_DELAY: ({ context }) => context.delayMs,
    ATTEMPT_STOP_DEADLINE: ATTEMPT_STOP_TIMEOUT_MS,
  },
  actions: {
    ...connectionFailureActions<RetryContext, RetryEvent>((context) =>
      operationScope(context.connectionName, context.operation),
    ),
    succeed: assign((_, params: { value: unknown }) => ({
      outcome: { ok: true as const, value: params.value },
    })),
    // The wait before the next attempt: the server's `Retry-After` exactly, else jittered.
    scheduleRetry: assign(({ context }, params: { error: unknown }) => ({
      delayMs: retryDelayMs(params.error, context.attempt, Math.random()),
    })),
    nextAttempt: assign(({ context }) => ({ attempt: context.attempt + 1 })),
    // The attempt's operation outgrew the policy's deadline (a call that became a task).
    extendDeadline: assign((_, params: { deadlineAt: number }) => ({
      deadlineAt: params.deadlineAt,
    })),
    // The outcome just decided (the deadline's timeout, the caller's reason) becomes the
    // attempt's `CANCEL`, so the attempt ends with exactly that reason.
    stopAttempt: sendTo('attempt', ({ context }) => ({
      type: 'CANCEL' as const,
      reason: context.outcome?.ok === false ? context.outcome.error : undefined,
    })),
    // The policy holds no handle: the attempt is stopped and the timers are cancelled by leaving
    // their states; each attempt's own machine wiped its secrets. The named hook keeps the shared
    // teardown invariant.
    teardown: () => {},
  },
});

/** The `retry` machine. */
export const retryMachine = retrySetup.createMachine({
  id: 'retry',
  initial: 'attempt',
  context: ({ input }) => {
    const context: RetryContext = {
      connectionName: input.connectionName,
      operation: input.operation,
      attempts: input.attempts,
      repeatable: input.repeatable,
      budgetMs: input.budgetMs,
      runAttempt: input.runAttempt,
      deadlineAt: Date.now() + input.budgetMs,
      attempt: 1,
      delayMs: 0,
      outcome: undefined,
    };
    return { ...context };
  },
  // The caller's abort, from any state without an attempt in flight: its exact reason.
  on: { CANCEL: { target: '.closed', actions: { type: 'failCancelled', params: reasonOf } } },
  states: {
    // One attempt: the operation's machine runs to its end, teardown included.
    attempt: {
      invoke: {
        id: 'attempt',
        src: 'attempt',
        input: ({ context }) => ({ attempt: context.attempt, runAttempt: context.runAttempt }),
      },
      initial: 'running',
      states: {
        running: {
          on: {
            ATTEMPT_SUCCEEDED: { target: CLOSED, actions: { type: 'succeed', params: resultOf } },
            ATTEMPT_FAILED: [
              {
                guard: {
                  type: 'mayRetry',
                  params: ({ context, event }) => ({
                    error: event.error,
                    attempt: context.attempt,
                    attempts: context.attempts,
                    repeatable: context.repeatable,
                    now: Date.now(),
                    deadlineAt: context.deadlineAt,
                  }),
                },
                target: '#retry.backingOff',
                actions: { type: 'scheduleRetry', params: failureOf },
              },
              { target: CLOSED, actions: { type: 'failWithError', params: failureOf } },
            ],
            CANCEL: {
              target: 'stopping',
              actions: [{ type: 'failCancelled', params: reasonOf }, 'stopAttempt'],
            },
            // Entered again, so the deadline's timer restarts from the new deadline.
            ATTEMPT_EXTENDED: {
              guard: {
                type: 'extendsDeadline',
                params: ({ context, event }) => ({
                  deadlineAt: event.deadlineAt,
                  current: context.deadlineAt,
                }),
              },
              target: 'running',
              reenter: true,
              actions: {
                type: 'extendDeadline',
                params: ({ event }) => ({ deadlineAt: event.deadlineAt }),
              },
            },
          },
          after: {
            OPERATION_DEADLINE: {
              target: 'stopping',
              actions: [{ type: 'failTimeout', params: budgetOf }, 'stopAttempt'],
            },
          },
        },
        // The outcome is decided; the attempt tears down (bounded) before the run ends.
        stopping: {
          on: {
            ATTEMPT_SUCCEEDED: { target: CLOSED },
            ATTEMPT_FAILED: { target: CLOSED },
            // A second abort abandons the attempt's cleanup.
            CANCEL: { target: CLOSED },
          },
          after: { ATTEMPT_STOP_DEADLINE: { target: CLOSED } },
        },
      },
    },
    // Wait before the next attempt; the wait was checked to end before the deadline.
    backingOff: {
      after: { RETRY_DELAY: { target: 'attempt', actions: 'nextAttempt' } },
    },
    // Final: the outcome was decided on the edge into it.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('retry reached its final state without an outcome'),
    },
});
