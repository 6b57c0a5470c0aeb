/**
 * Diagnostics channels (`node:diagnostics_channel`), for subscribers that want no OpenTelemetry
 * dependency, in the `undici:*` tradition:
 *
 * - `stitchkit-transport:operation`, a `TracingChannel`: `start`, `end`, `asyncStart`, `asyncEnd`
 *   and `error` around every connection operation (an MCP `tools/list` or `tools/call`, an OpenAPI
 *   call, a spec load, all its attempts under a retry policy). The context is
 *   `{ connection, operation, phase }`; Node adds `result` or `error`.
 * - `stitchkit-transport:transition`: every machine transition of those operations, as the same
 *   `TransitionRecord` an `observe` hook gets (state paths, event types and timings only).
 *
 * With no subscriber, an operation pays one `hasSubscribers` check per channel.
 */
import { channel, tracingChannel } from 'node:diagnostics_channel';
import type { TransitionObserver, TransitionRecord } from '../machines/observe.js';
import type { ConnectionOperation, ConnectionPhase } from '../wire/index.js';

/** The names of the package's diagnostics channels. */
export const DIAGNOSTICS_CHANNELS = Object.freeze({
  operation: 'stitchkit-transport:operation',
  transition: 'stitchkit-transport:transition',
} as const);

/** The context of one traced operation (Node adds `result` or `error` to it). */
export interface OperationDiagnostics {
  /** The connection's name. */
  readonly connection: string;
  readonly operation: ConnectionOperation;
  readonly phase: ConnectionPhase;
}

const operations = tracingChannel<unknown, OperationDiagnostics & object>(
  DIAGNOSTICS_CHANNELS.operation,
);
const transitions = channel(DIAGNOSTICS_CHANNELS.transition);

/** Someone listens on the operation channel (checked before anything is built for it). */
export function isOperationTraced(): boolean {
  return operations.hasSubscribers;
}

/** Runs `operation` traced on the operation channel, with `context`. */
export function traceOperation<T>(
  context: OperationDiagnostics,
  operation: () => Promise<T>,
): Promise<T> {
  return operations.tracePromise(operation, { ...context });
}

/** An observer that publishes each record on the transition channel, when someone listens. */
export function transitionPublisher(): TransitionObserver | undefined {
  if (!transitions.hasSubscribers) return undefined;
  return (record: TransitionRecord) => transitions.publish(record);
}
