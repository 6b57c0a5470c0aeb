/**
 * Where a connection request or failure belongs: the closed vocabularies of operations and phases,
 * the one scope type that the wire, the JSON-RPC layer, the readers and the errors share, and the
 * limits of a phase.
 * Pure: no I/O. The vocabularies are closed so arbitrary method names or URLs never enter
 * diagnostics.
 */

/** The step of a connection that was running when something happened. */
export type ConnectionOperation =
  | 'initialize'
  | 'notifications/initialized'
  | 'tools/list'
  | 'tools/call'
  | 'tasks/get'
  | 'tasks/update'
  | 'tasks/result'
  | 'tasks/cancel'
  | 'endpoint'
  | 'standalone-stream'
  | 'subscriptions/listen'
  | 'openapi/spec'
  | 'openapi/call';

/** Which set of limits applies: catalog discovery or a tool call. */
export type ConnectionPhase = 'discovery' | 'call';

/** Who is talking and for which step: every wire function and every connection error takes it. */
export interface OperationScope {
  /** The connection's configured name (raw; for host-facing errors only, never projected). */
  readonly connectionName: string;
  /** The step being performed. */
  readonly operation: ConnectionOperation;
  /** The phase whose limits are in force. */
  readonly phase: ConnectionPhase;
  /** Raw bytes the operation had read so far, when known (reported by its errors). */
  readonly observedReadBytes?: number;
  /**
   * The status the Streamable HTTP `initialize` was answered with (400, 404 or 405) when the run
   * fell back to legacy HTTP+SSE, so an error of the legacy attempt names both steps.
   */
  readonly fallbackStatus?: number;
}

const PHASE_BY_OPERATION: Readonly<Record<ConnectionOperation, ConnectionPhase>> = {
  initialize: 'discovery',
  'notifications/initialized': 'discovery',
  'tools/list': 'discovery',
  endpoint: 'discovery',
  'standalone-stream': 'discovery',
  'subscriptions/listen': 'discovery',
  'openapi/spec': 'discovery',
  'tools/call': 'call',
  'tasks/get': 'call',
  'tasks/update': 'call',
  'tasks/result': 'call',
  'tasks/cancel': 'call',
  'openapi/call': 'call',
};

/**
 * The phase whose limits govern an operation. The per-call client's handshake is discovery even
 * inside a tool call, so only `tools/call`, the `tasks/*` requests of a call that became a task,
 * and `openapi/call` are `call`.
 */
export function phaseOfOperation(operation: ConnectionOperation): ConnectionPhase {
  return PHASE_BY_OPERATION[operation];
}

/** The scope of `operation` on a connection, its phase derived by {@link phaseOfOperation}. */
export function operationScope(
  connectionName: string,
  operation: ConnectionOperation,
): OperationScope {
  return { connectionName, operation, phase: phaseOfOperation(operation) };
}

/** A deadline and a raw byte ceiling for one phase of an operation. */
export interface PhaseLimits {
  /** Milliseconds the phase may take, end to end. */
  readonly timeoutMs: number;
  /** Raw bytes the phase may read, SSE framing included. */
  readonly maxResponseBytes: number;
  /**
   * When set, each upstream progress report restarts the `timeoutMs` window, never past this many
   * milliseconds from the request's start; unset, progress extends nothing.
   */
  readonly maxTotalTimeoutMs?: number;
}
