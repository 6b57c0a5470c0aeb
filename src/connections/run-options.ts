/**
 * How every connection runs its machines: the connection's own observer composed with the
 * mount's, its inspector, and the labels every transition record carries. One home, so an MCP
 * operation, a spec load and an OpenAPI call are observed the same way.
 */
import type {
  InspectionObserver,
  TransitionLabels,
  TransitionObserver,
} from '../machines/observe.js';
import type { RunMachineOptions } from '../machines/run-machine.js';

/** Composes observers so each one is called and contained on its own. */
export function composeObservers(
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
}

/**
 * The `runMachine` options of one run for `connection`: its observer and the mount's (`observe`),
 * its inspector, the run's labels, and the caller's signal and emitted-event listener when given.
 */
export function connectionRunOptions(
  connection: ConnectionHooks,
  labels: TransitionLabels,
  run: Pick<RunMachineOptions, 'observe' | 'signal' | 'onEmitted'> = {},
): RunMachineOptions {
  const observe = composeObservers(connection.observe, run.observe);
  return {
    labels,
    ...(run.signal === undefined ? {} : { signal: run.signal }),
    ...(observe === undefined ? {} : { observe }),
    ...(connection.inspect === undefined ? {} : { inspect: connection.inspect }),
    ...(run.onEmitted === undefined ? {} : { onEmitted: run.onEmitted }),
  };
}
