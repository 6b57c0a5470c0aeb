/**
 * Types of the `retry` machine (a connection's opt-in retry policy): its input, context, events
 * and output, and what its one actor reports. The machine knows an attempt only as a function
 * that runs one whole operation (its own machine, teardown included) under a signal; context
 * holds data and that function.
 */
import type { ConnectionOperation } from '../../wire/index.js';
import type { CancelEvent, MachineResult } from '../run-machine.js';

/**
 * Runs one attempt of the operation to its end: resolves with the operation's result, rejects
 * with its typed failure (for an abort of `signal`, the abort's exact reason). An attempt whose
 * operation outgrows its request window (a call that became a task) calls `extend` with the
 * absolute time it may now run until, and the policy's deadline moves there (never earlier).
 */
export type RunAttempt = (
  signal: AbortSignal,
  extend: (deadlineAt: number) => void,
) => Promise<unknown>;

/** What a run of `retry` needs; built per operation by the connection layer. */
export interface RetryInput {
  /** The connection's name; used in host-facing error messages only. */
  readonly connectionName: string;
  /** The operation every attempt performs (`tools/call`, `tools/list`, `openapi/call`, …). */
  readonly operation: ConnectionOperation;
  /** At most this many attempts in all, the first included: an integer of at least 1. */
  readonly attempts: number;
  /**
   * Whether the operation may run twice with no further effect: a tool marked read-only or
   * idempotent, a listing, a GET, HEAD, PUT or DELETE. Otherwise only a failure that proves the
   * server never received the request is tried again.
   */
  readonly repeatable: boolean;
  /** The operation's deadline in ms, counted from the first attempt's start; no attempt runs past it. */
  readonly budgetMs: number;
  /** Runs one attempt. */
  readonly runAttempt: RunAttempt;
}

/** What the `attempt` actor receives. */
export interface AttemptInput {
  /** 1-based number of this attempt. */
  readonly attempt: number;
  readonly runAttempt: RunAttempt;
}

/** How an attempt ended, or that it may run longer, as the `attempt` actor reports it. */
export type AttemptEvent =
  | { readonly type: 'ATTEMPT_SUCCEEDED'; readonly value: unknown }
  | { readonly type: 'ATTEMPT_FAILED'; readonly error: unknown }
  | { readonly type: 'ATTEMPT_EXTENDED'; readonly deadlineAt: number };

/** Events the `retry` machine accepts: the caller's abort and an attempt's end. */
export type RetryEvent = CancelEvent | AttemptEvent;

/** Output of `retry`: the value of the attempt that succeeded, or the failure that ended it. */
export type RetryOutput = MachineResult<{ readonly value: unknown }>;

/** Context of `retry`: its input as given, and the run's progress. */
export interface RetryContext extends RetryInput {
  /** Absolute deadline of the whole operation: the first attempt's start plus `budgetMs`. */
  readonly deadlineAt: number;
  /** 1-based number of the attempt running (or the last one). */
  readonly attempt: number;
  /** The wait before the next attempt, decided on the edge into `backingOff`. */
  readonly delayMs: number;
  /** The outcome, set on the edge that decides it. */
  readonly outcome: RetryOutput | undefined;
}
