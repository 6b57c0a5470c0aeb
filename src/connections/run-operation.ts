/**
 * How every connection operation runs: its machine once, observed by the connection's observer
 * composed with the mount's, inspected by its inspector, every record labelled alike; or, under
 * the connection's retry policy, inside the `retry` machine, each attempt being that machine run
 * to its end. One home, so an MCP operation, an OpenAPI call and a spec load run (and retry)
 * alike.
 */
import type { AnyStateMachine, InputFrom } from 'xstate';
import type { ToolAnnotations } from '../binding/index.js';
import { MAX_TIMER_MS } from '../binding/kernel/timers.js';
import type {
  InspectionObserver,
  TransitionLabels,
  TransitionObserver,
} from '../machines/observe.js';
import { retryMachine } from '../machines/retry/retry.machine.js';
import { type MachineOk, type RunMachineOptions, runMachine } from '../machines/run-machine.js';
import type { ConnectionOperation, PhaseLimits } from '../wire/index.js';
import { phaseOfOperation } from '../wire/index.js';
import { isOperationTraced, traceOperation, transitionPublisher } from './diagnostics.js';
import {
  type ConnectionTelemetry,
  type OperationSpanPlan,
  startOperationTelemetry,
} from './telemetry.js';

/** Composes observers so each one is called and contained on its own. */
function composeObservers(
  ...observers: (TransitionObserver | undefined)[]
): TransitionObserver | undefined {
  const present = observers.filter((observer) => observer !== undefined);
  if (present.length <= 1) return present[0];
  return (record) => {
    for (const observer of present) {
      try {
        observer(record);
      } catch {
        // An observer never changes the outcome of a call.
      }
    }
  };
}

/** The hooks a connection definition carries. */
export interface ConnectionHooks {
  readonly observe?: TransitionObserver;
  readonly inspect?: InspectionObserver;
  readonly telemetry?: ConnectionTelemetry | false;
}

/**
 * The `runMachine` options of one run for `connection`: its observer and the mount's (`observe`),
 * its inspector, the run's labels, and the caller's signal and emitted-event listener when given.
 */
function connectionRunOptions(
  connection: ConnectionHooks,
  labels: TransitionLabels,
  run: Pick<RunMachineOptions, 'observe' | 'signal' | 'onEmitted'> = {},
): RunMachineOptions {
  const observe = composeObservers(connection.observe, run.observe, transitionPublisher());
  return {
    labels,
    ...(run.signal === undefined ? {} : { signal: run.signal }),
    ...(observe === undefined ? {} : { observe }),
    ...(connection.inspect === undefined ? {} : { inspect: connection.inspect }),
    ...(run.onEmitted === undefined ? {} : { onEmitted: run.onEmitted }),
  };
}

/** One operation of a connection, as it is run, observed and judged by the retry policy. */
export interface ConnectionOperationRun {
  /** The connection's name and its `retry.attempts` (1: no retry). */
  readonly connection: { readonly name: string; readonly attempts: number };
  readonly operation: ConnectionOperation;
  /** It may run twice with no further effect (read-only, idempotent, a listing). */
  readonly repeatable: boolean;
  /** The operation's deadline across every attempt, in ms (see {@link attemptBudgetMs}). */
  readonly budgetMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly observe?: TransitionObserver | undefined;
  /** Receives the events each attempt's machine emits. */
  readonly onEmitted?: RunMachineOptions['onEmitted'];
  /** What the operation's OpenTelemetry span says of it; absent: the operation has none. */
  readonly span?: OperationSpanPlan;
}

/**
 * Whether a tool's annotations say a second call has no further effect (`readOnlyHint` or
 * `idempotentHint`; for an OpenAPI tool they come from its method, RFC 9110), so the retry policy
 * may repeat it after any transient failure.
 */
export function isRepeatableTool(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
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
 * What an attempt listens to of its run's emitted events: the operation's own listener, and under
 * a retry policy a `deadline` event (a call that became a task), which extends the policy's
 * deadline over the attempts to the task's (decision 0046).
 */
function emittedListener(
  listener: RunMachineOptions['onEmitted'],
  extend: ((deadlineAt: number) => void) | undefined,
): Pick<RunMachineOptions, 'onEmitted'> {
  if (extend === undefined) return listener === undefined ? {} : { onEmitted: listener };
  return {
    onEmitted: (event) => {
      const at = (event as { readonly at?: unknown }).at;
      if (event.type === 'deadline' && typeof at === 'number') extend(at);
      listener?.(event);
    },
  };
}

/**
 * Runs `machine` with `input` for one operation of a connection: once when the connection has no
 * retry policy, else under the `retry` machine. Resolves with the output of the run that
 * succeeded; rejects with the failure that ended the operation.
 */
export function runConnectionOperation<TMachine extends AnyStateMachine>(
  hooks: ConnectionHooks,
  run: ConnectionOperationRun,
  machine: TMachine,
  input: InputFrom<TMachine>,
): Promise<MachineOk<TMachine>> {
  // Nothing is built for the channel unless someone listens: this runs on every call.
  if (!isOperationTraced()) return runInSpan(hooks, run, machine, input);
  return traceOperation(
    {
      connection: run.connection.name,
      operation: run.operation,
      phase: phaseOfOperation(run.operation),
    },
    () => runInSpan(hooks, run, machine, input),
  );
}

/**
 * Runs the operation inside its OpenTelemetry span, when it has one and the host traces,
 * measures or propagates: its transitions become the span's events, and its requests carry the
 * span's trace context (the machine input's `trace`).
 */
function runInSpan<TMachine extends AnyStateMachine>(
  hooks: ConnectionHooks,
  run: ConnectionOperationRun,
  machine: TMachine,
  input: InputFrom<TMachine>,
): Promise<MachineOk<TMachine>> {
  const telemetry =
    run.span === undefined
      ? undefined
      : startOperationTelemetry(hooks.telemetry, run.connection.name, run.span, run.signal);
  if (telemetry === undefined) return runOperation(hooks, run, machine, input);
  const observed: ConnectionOperationRun = Object.assign({}, run, {
    observe: composeObservers(run.observe, telemetry.observe),
  });
  const traced =
    telemetry.trace === undefined ? input : Object.assign({}, input, { trace: telemetry.trace });
  return telemetry.run(() => runOperation(hooks, observed, machine, traced));
}

function runOperation<TMachine extends AnyStateMachine>(
  hooks: ConnectionHooks,
  run: ConnectionOperationRun,
  machine: TMachine,
  input: InputFrom<TMachine>,
): Promise<MachineOk<TMachine>> {
  const labels = {
    connection: run.connection.name,
    phase: phaseOfOperation(run.operation),
    operation: run.operation,
  };
  const attempt = (signal: AbortSignal | undefined, extend?: (deadlineAt: number) => void) =>
    runMachine(
      machine,
      input,
      connectionRunOptions(hooks, labels, {
        ...(signal === undefined ? {} : { signal }),
        ...(run.observe === undefined ? {} : { observe: run.observe }),
        ...emittedListener(run.onEmitted, extend),
      }),
    );
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
    connectionRunOptions(hooks, labels, {
      ...(run.signal === undefined ? {} : { signal: run.signal }),
      ...(run.observe === undefined ? {} : { observe: run.observe }),
    }),
  ).then((outcome) => outcome.value as MachineOk<TMachine>);
}
