/**
 * The transport-neutral core of the wait operation (ADR 0081): one run of the `wait` machine
 * through `runMachine`, shared by `defineWaitTool` and the raw `mountWait` adapter.
 */
import { assertTimeoutMs } from '../machines/deadline.js';
import type {
  InspectionObserver,
  TransitionLabels,
  TransitionObserver,
} from '../machines/observe.js';
import { runMachine } from '../machines/run-machine.js';
import { makeWaitActors, type WaitPollContext } from '../machines/wait/wait.actors.js';
import { waitMachine } from '../machines/wait/wait.machine.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../machines/wait/wait.policy.js';

/** Default overall deadline of a wait, in seconds: the wait machine's default (600 s). */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = DEFAULT_WAIT_TIMEOUT_MS / 1000;

/** What the core reports after each completed poll. */
export interface WaitTick<TState> {
  /** 1-based number of the poll that just completed. */
  readonly poll: number;
  /** Milliseconds since the wait started. */
  readonly elapsedMs: number;
  /** The state it returned. */
  readonly state: TState;
}

/** Options of {@link runWaitOperation}. */
export interface WaitOperationOptions<TState> {
  /** Observes the state once; its signal fires on caller abort or at the overall deadline. */
  poll(context: WaitPollContext): Promise<TState> | TState;
  /** True when a state is final. */
  done(state: TState): boolean;
  /** This call's overall deadline in seconds; `undefined` uses `defaultTimeoutSeconds`. */
  readonly timeoutSeconds?: number;
  /** Deadline when the call chose none, in seconds; default `DEFAULT_WAIT_TIMEOUT_SECONDS`. */
  readonly defaultTimeoutSeconds?: number;
  /** Sleep schedule in seconds, last entry repeating; default 2,3,5,5,8,10. */
  readonly backoffSeconds?: readonly number[];
  /** Caller cancellation; the wait rejects with its exact reason. */
  readonly signal?: AbortSignal;
  /** Called after every completed poll (progress reporting); a throw is contained. */
  readonly onPoll?: (tick: WaitTick<TState>) => void;
  /** Receives the machine's transition records. */
  readonly observe?: TransitionObserver;
  /** Handed to the actor unchanged. */
  readonly inspect?: InspectionObserver;
  /** Labels for the transition records. */
  readonly labels?: TransitionLabels;
}

/** The outcome of a wait that observed at least one state. */
export interface WaitOperationResult<TState> {
  /** The last observed state. */
  readonly state: TState;
  /** True when the deadline passed before `done` accepted a state. */
  readonly timedOut: boolean;
  /** Completed polls. */
  readonly polls: number;
  /** The overall deadline that applied, in milliseconds. */
  readonly timeoutMs: number;
}

/**
 * Checks a wait timeout given in seconds: its milliseconds, rounded, must be a delay
 * `assertTimeoutMs` accepts (1 to `MAX_TIMER_MS`). Returns those milliseconds; else a RangeError
 * naming `option`. Both wait adapters call it at definition for `defaultTimeout`.
 */
export function assertWaitTimeoutSeconds(seconds: number, option: string): number {
  return assertTimeoutMs(Math.round(seconds * 1000), `${option} × 1000`);
}

/** The call's timeout, else the default timeout, else the machine default; in milliseconds. */
function waitTimeoutMs(
  options: Pick<WaitOperationOptions<unknown>, 'timeoutSeconds' | 'defaultTimeoutSeconds'>,
): number {
  // `!= null` as `??` did before: an untyped caller's `null` falls back to the default.
  if (options.timeoutSeconds != null) {
    return assertWaitTimeoutSeconds(options.timeoutSeconds, 'timeoutSeconds');
  }
  if (options.defaultTimeoutSeconds != null) {
    return assertWaitTimeoutSeconds(options.defaultTimeoutSeconds, 'defaultTimeoutSeconds');
  }
  return DEFAULT_WAIT_TIMEOUT_MS;
}

/**
 * Polls until `done`, the deadline, or cancellation. Resolves with the last state (`timedOut`
 * when the deadline passed); rejects with `WaitTimeoutError` when no state was seen before the
 * deadline, with the poll's error when a poll throws, and with `signal.reason` on cancellation.
 * An already-aborted signal rejects before the first poll.
 */
export async function runWaitOperation<TState>(
  options: WaitOperationOptions<TState>,
): Promise<WaitOperationResult<TState>> {
  const timeoutMs = waitTimeoutMs(options);
  const startedAt = Date.now();
  let polls = 0;
  const machine = waitMachine.provide({
    actors: makeWaitActors({
      poll: async (context) => {
        const state = await options.poll(context);
        polls += 1;
        try {
          options.onPoll?.({ poll: polls, elapsedMs: Date.now() - startedAt, state });
        } catch {
          // Progress reporting never changes the outcome of the wait.
        }
        return state;
      },
      isDone: (state) => options.done(state as TState),
    }),
  });
  const output = await runMachine(
    machine,
    {
      timeoutMs,
      startedAt,
      ...(options.backoffSeconds === undefined ? {} : { backoffSeconds: options.backoffSeconds }),
    },
    {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.observe === undefined ? {} : { observe: options.observe }),
      ...(options.inspect === undefined ? {} : { inspect: options.inspect }),
      labels: { operation: 'wait', ...options.labels },
    },
  );
  return {
    state: output.snapshot as TState,
    timedOut: output.timedOut,
    polls: output.polls,
    timeoutMs,
  };
}

/** `"<phase> — poll N, Xs elapsed"` when the state has a string `phase`, else `"poll N, …"`. */
export function waitProgressMessage(state: unknown, poll: number, elapsedMs: number): string {
  const phase = (state as { phase?: unknown } | null | undefined)?.phase;
  const tail = `poll ${poll}, ${Math.round(elapsedMs / 1000)}s elapsed`;
  return typeof phase === 'string' ? `${phase} — ${tail}` : tail;
}
