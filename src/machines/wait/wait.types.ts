/** Types shared by the `wait` machine, its guards and its actors (ADR 0081). */
import type { CancelEvent, MachineResult } from '../run-machine.js';

/** Input of the `wait` machine. */
export interface WaitMachineInput {
  /** Overall deadline in milliseconds, counted from `startedAt`; default 600 000. */
  readonly timeoutMs?: number;
  /** Sleep schedule between polls in seconds, last entry repeating; default 2,3,5,5,8,10. */
  readonly backoffSeconds?: readonly number[];
  /** Start time in epoch milliseconds; default `Date.now()` when the actor starts. */
  readonly startedAt?: number;
}

/** What the `poll` actor receives. */
export interface WaitPollInput {
  /** 0-based number of this poll. */
  readonly attempt: number;
  /** The absolute overall deadline, in epoch milliseconds. */
  readonly deadlineAt: number;
}

/** What the `poll` actor resolves with. */
export interface WaitPollOutput {
  /** The observed state, as returned by the application's poll. */
  readonly snapshot: unknown;
  /** Whether the application's `done` predicate accepted it. */
  readonly done: boolean;
  /** When the poll finished, in epoch milliseconds. */
  readonly finishedAt: number;
}

/** Output of the `wait` machine: the last snapshot (maybe timed out), or the failure. */
export type WaitMachineOutput = MachineResult<{
  /** The last observed state. */
  readonly snapshot: unknown;
  /** True when the deadline passed before `done` accepted a state. */
  readonly timedOut: boolean;
  /** Number of completed polls. */
  readonly polls: number;
}>;

/** Events the `wait` machine accepts from outside. */
export type WaitEvent = CancelEvent;

/** Context of the `wait` machine; data only. */
export interface WaitContext {
  readonly backoffSeconds: readonly number[];
  readonly timeoutMs: number;
  /** Absolute overall deadline; each state's delay is the time remaining until it. */
  readonly deadlineAt: number;
  /** Completed polls. */
  readonly polls: number;
  /** The last observed state (meaningful when `polls > 0`). */
  readonly snapshot: unknown;
  /** When the last poll finished. */
  readonly lastPollAt: number;
  /** When the current sleep ends (clamped to the deadline). */
  readonly sleepUntil: number;
  /** The outcome, set on the edge into `closed`. */
  readonly outcome: WaitMachineOutput | undefined;
}
