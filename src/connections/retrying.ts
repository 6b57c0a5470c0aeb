/**
 * How every connection operation runs under its connection's retry policy: once, as it always
 * did, without one; else inside the `retry` machine, each attempt being the operation's own
 * machine run to its end. One home, so an MCP operation, an OpenAPI call and a spec load retry
 * alike.
 */
import { MAX_TIMER_MS } from '../binding/timers.js';
import type { TransitionObserver } from '../machines/observe.js';
import { retryMachine } from '../machines/retry/retry.machine.js';
import { runMachine } from '../machines/run-machine.js';
import type { ConnectionOperation, PhaseLimits } from '../wire/index.js';
import { phaseOfOperation } from '../wire/index.js';
import { type ConnectionHooks, connectionRunOptions } from './run-options.js';

/** The operation to run, as the retry policy judges it. */
export interface RetriedOperation {
  /** The connection's name and its `retry.attempts` (1: no retry). */
  readonly connection: { readonly name: string; readonly attempts: number };
  readonly operation: ConnectionOperation;
  /** It may run twice with no further effect (read-only, idempotent, a listing). */
  readonly repeatable: boolean;
  /** The operation's deadline across every attempt, in ms (see {@link attemptBudgetMs}). */
  readonly budgetMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly observe?: TransitionObserver | undefined;
}

/**
 * The longest one attempt may take, which is the deadline of all of them: turning retries on
 * never makes an operation wait longer than one attempt could. An MCP attempt has its handshake
 * window and then its request's (progress may stretch it to `maxTotalTimeoutMs`); an OpenAPI call
 * or a spec load has one window (`request` alone). Never past the longest delay a timer honours.
 */
export function attemptBudgetMs(request: PhaseLimits, handshake?: PhaseLimits): number {
  const longest = (handshake?.timeoutMs ?? 0) + (request.maxTotalTimeoutMs ?? request.timeoutMs);
  return Math.min(longest, MAX_TIMER_MS);
}

/**
 * Runs `attempt` (one whole operation under the signal it is given) once when the connection
 * has no retry policy, else under the `retry` machine, observed like every other machine of the
 * connection. Resolves with the value of the attempt that succeeded; rejects with the failure that
 * ended the operation.
 */
export function runRetrying<T>(
  hooks: ConnectionHooks,
  run: RetriedOperation,
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (run.connection.attempts <= 1) return attempt(run.signal);
  return runMachine(
    retryMachine,
    {
      connectionName: run.connection.name,
      operation: run.operation,
      attempts: run.connection.attempts,
      repeatable: run.repeatable,
      budgetMs: run.budgetMs,
      runAttempt: attempt,
    },
    connectionRunOptions(
      hooks,
      {
        connection: run.connection.name,
        phase: phaseOfOperation(run.operation),
        operation: run.operation,
      },
      {
        ...(run.signal === undefined ? {} : { signal: run.signal }),
        ...(run.observe === undefined ? {} : { observe: run.observe }),
      },
    ),
  ).then((outcome) => outcome.value as T);
}
