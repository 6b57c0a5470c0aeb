/**
 * Drives one machine run under an AbortSignal: the signal becomes a `CANCEL` event, the output's
 * result union becomes a resolved value or a rejection, and nothing outlives the run.
 */
import { type AnyStateMachine, createActor, type InputFrom, type OutputFrom } from 'xstate';
import {
  attachTransitionObserver,
  type InspectionObserver,
  type TransitionLabels,
  type TransitionObserver,
} from './observe.js';

/** The output contract every machine follows: a result union. */
export type MachineResult<TOk extends object = object> =
  | ({ readonly ok: true } & TOk)
  | { readonly ok: false; readonly error: unknown };

/** The event every machine handles in every non-final state; `reason` is kept exactly. */
export interface CancelEvent {
  readonly type: 'CANCEL';
  readonly reason: unknown;
}

/** Options of {@link runMachine}. */
export interface RunMachineOptions {
  /** Caller cancellation: its abort is sent as `CANCEL` with `signal.reason`. */
  readonly signal?: AbortSignal;
  /** Receives one record per transition; a throw is contained. */
  readonly observe?: TransitionObserver;
  /** Handed to `createActor` unchanged (XState inspection API). */
  readonly inspect?: InspectionObserver;
  /** Labels copied into every transition record. */
  readonly labels?: TransitionLabels;
  /** Receives every event the machine emits (e.g. `mcpOperation`'s upstream `progress`); contained. */
  readonly onEmitted?: (event: { readonly type: string }) => void;
}

/** The ok member of a machine's output union. */
export type MachineOk<TMachine extends AnyStateMachine> = Extract<
  OutputFrom<TMachine>,
  { ok: true }
>;

function isResult(value: unknown): value is MachineResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { ok?: unknown }).ok === 'boolean'
  );
}

/**
 * Runs `machine` with `input` to its final state.
 *
 * Resolves with the `{ ok: true }` output; rejects with the output's `error` (for a cancellation,
 * the caller's exact `signal.reason`), or with the actor's error when it ends in `error` status.
 * An already-aborted signal rejects with its reason before any actor is created. The abort
 * listener is removed and the actor is stopped when the run settles, so no timer survives it.
 */
export function runMachine<TMachine extends AnyStateMachine>(
  machine: TMachine,
  input: InputFrom<TMachine>,
  options: RunMachineOptions = {},
): Promise<MachineOk<TMachine>> {
  const { signal, observe, inspect, labels, onEmitted } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<MachineOk<TMachine>>((resolve, reject) => {
    const actor = createActor(machine, {
      input,
      ...(inspect === undefined ? {} : { inspect }),
    });
    const observation =
      observe === undefined
        ? undefined
        : attachTransitionObserver(actor, observe, {
            connection: labels?.connection,
            operation: labels?.operation,
            phase: labels?.phase,
            machine: labels?.machine ?? machine.id,
          });
    const emitted =
      onEmitted === undefined
        ? undefined
        : actor.on('*', (event: { readonly type: string }) => {
            try {
              onEmitted(event);
            } catch {
              // A listener never changes the outcome of a run.
            }
          });
    const onAbort = (): void => {
      const cancel: CancelEvent = { type: 'CANCEL', reason: signal?.reason };
      (actor as { send(event: CancelEvent): void }).send(cancel);
    };
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      emitted?.unsubscribe();
      actor.stop();
      // XState reports the final snapshot to inspectors after completion observers run; the last
      // transition record is still delivered if the observation ends one microtask later.
      if (observation !== undefined) queueMicrotask(() => observation.unsubscribe());
      outcome();
    };
    actor.subscribe({
      complete: () => {
        const output: unknown = (actor.getSnapshot() as { output?: unknown }).output;
        settle(() => {
          if (!isResult(output)) {
            reject(new TypeError(`Machine "${machine.id}" ended without a result output`));
          } else if (output.ok) {
            resolve(output as MachineOk<TMachine>);
          } else {
            reject(output.error);
          }
        });
      },
      error: (error: unknown) => settle(() => reject(error)),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    actor.start();
  });
}
