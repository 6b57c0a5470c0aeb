/**
 * The abstracted model of the `retry` machine for its model checks and walks: the input, how a
 * snapshot becomes a vertex, and the concrete ways an attempt ends.
 */
import { vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { retryMachine } from '../../src/machines/retry/retry.machine.js';
import type {
  RetryContext,
  RetryInput,
  RetryOutput,
  RunAttempt,
} from '../../src/machines/retry/retry.types.js';
import {
  ConnectionNetworkError,
  ConnectionProtocolError,
  ConnectionRequestError,
  operationScope,
} from '../../src/wire/index.js';
import type { ModelOptions } from './model-graph.js';
import { describeOutcome } from './model-outcome.js';
import type { WalkHarness } from './model-walk.js';

/** The modelled operation's deadline over every attempt. */
export const RETRY_BUDGET_MS = 10_000;
/** At most two attempts: the first and one retry. */
export const RETRY_ATTEMPTS = 2;

const scope = operationScope('model', 'tools/call');

/** How the modelled attempts end: a value, or one of four failures. */
export const ATTEMPT_ENDINGS = {
  succeeded: { type: 'ATTEMPT_SUCCEEDED', value: { content: [] } },
  /** Never received: another attempt may mend it, whatever the tool does. */
  refused: {
    type: 'ATTEMPT_FAILED',
    error: new ConnectionNetworkError({ ...scope, failure: 'refused' }),
  },
  /** Received, and the tool is not repeatable: the operation ends. */
  reset: {
    type: 'ATTEMPT_FAILED',
    error: new ConnectionNetworkError({ ...scope, failure: 'reset' }),
  },
  /** A handshake step's 503 that asks for a wait longer than the deadline leaves. */
  tooLate: {
    type: 'ATTEMPT_FAILED',
    error: new ConnectionRequestError({
      ...operationScope('model', 'initialize'),
      status: 503,
      body: 'later',
      retryAfterMs: RETRY_BUDGET_MS,
    }),
  },
  /** Not transient: the operation ends. */
  refusal: {
    type: 'ATTEMPT_FAILED',
    error: new ConnectionProtocolError({ ...scope, violation: 'answered with no result' }),
  },
  /**
   * The attempt's call became a task whose deadline is later than the policy's: an absolute time
   * later than any clock the model runs on (the walk's fake one starts at 0), which the timer then
   * waits for at most its longest delay.
   */
  extended: { type: 'ATTEMPT_EXTENDED', deadlineAt: Date.UTC(2100, 0, 1) },
} as const satisfies Record<string, AnyEventObject>;

/**
 * Input of the modelled operation: a tool call that is not repeatable, two attempts, a 10 s
 * budget. `runAttempt` is replaced by the walk; the model never runs it.
 */
export const retryModelInput: RetryInput = {
  connectionName: 'model',
  operation: 'tools/call',
  attempts: RETRY_ATTEMPTS,
  repeatable: false,
  budgetMs: RETRY_BUDGET_MS,
  runAttempt: () => new Promise(() => undefined),
};

/** Vertex key: the state, the attempt, and the outcome (decided in `stopping`, and once final). */
export function serializeRetryState(snapshot: AnyMachineSnapshot): string {
  if (snapshot.status === 'done') {
    return JSON.stringify({
      value: snapshot.value,
      outcome: describeOutcome(snapshot.output as RetryOutput),
    });
  }
  const context = snapshot.context as RetryContext;
  return JSON.stringify({
    value: snapshot.value,
    attempt: context.attempt,
    outcome: describeOutcome(context.outcome),
  });
}

export const retryModelOptions: ModelOptions = {
  input: retryModelInput,
  serializeState: serializeRetryState,
  eventCases: {
    ATTEMPT_SUCCEEDED: [ATTEMPT_ENDINGS.succeeded],
    ATTEMPT_FAILED: [
      ATTEMPT_ENDINGS.refused,
      ATTEMPT_ENDINGS.reset,
      ATTEMPT_ENDINGS.tooLate,
      ATTEMPT_ENDINGS.refusal,
    ],
    CANCEL: [{ type: 'CANCEL', reason: 'walk cancelled' }],
    ATTEMPT_EXTENDED: [ATTEMPT_ENDINGS.extended],
  },
  // An attempt told to stop ends as it was told; one failure stands for every way it can.
  isPossible: (snapshot, event) =>
    !(
      JSON.stringify(snapshot.value) === JSON.stringify({ attempt: 'stopping' }) &&
      event.type === 'ATTEMPT_FAILED' &&
      event !== ATTEMPT_ENDINGS.refused
    ),
};

/**
 * The retry machine (or a defective copy) whose attempts are deferred, and the signal each attempt
 * was given.
 */
export function retryWalkHarness(
  definition: AnyStateMachine = retryMachine,
): WalkHarness & { readonly signals: AbortSignal[] } {
  let settle: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
  let extend: ((deadlineAt: number) => void) | undefined;
  const signals: AbortSignal[] = [];
  const runAttempt: RunAttempt = (signal, extendDeadline) => {
    signals.push(signal);
    extend = extendDeadline;
    return new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
  };
  const extended = async ({ event }: { event: AnyEventObject }) => {
    await vi.advanceTimersByTimeAsync(0);
    if (extend === undefined) throw new Error('no attempt is running');
    extend((event as unknown as { readonly deadlineAt: number }).deadlineAt);
    await vi.advanceTimersByTimeAsync(0);
  };
  const end = async ({ event }: { event: AnyEventObject }) => {
    // The attempt starts one microtask after its state is entered.
    await vi.advanceTimersByTimeAsync(0);
    if (settle === undefined) throw new Error('no attempt is running');
    if (event.type === 'ATTEMPT_SUCCEEDED') settle.resolve((event as { value?: unknown }).value);
    else settle.reject((event as { error?: unknown }).error);
    await vi.advanceTimersByTimeAsync(0);
  };
  return {
    signals,
    machine: definition,
    options: {
      ...retryModelOptions,
      input: { ...retryModelInput, runAttempt },
      beforePath: () => {
        settle = undefined;
        extend = undefined;
        vi.setSystemTime(0);
      },
      executors: { ATTEMPT_SUCCEEDED: end, ATTEMPT_FAILED: end, ATTEMPT_EXTENDED: extended },
    },
  };
}
