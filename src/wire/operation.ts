/**
 * The closed vocabularies that say where a connection failure happened. Pure: no I/O.
 * They are closed so arbitrary method names or URLs can never enter diagnostics.
 */

/** The step of a connection that was running when something happened. */
export type ConnectionOperation =
  | 'initialize'
  | 'notifications/initialized'
  | 'tools/list'
  | 'tools/call'
  | 'endpoint'
  | 'openapi/spec'
  | 'openapi/call';

/** Which set of limits applies: catalog discovery or a tool call. */
export type ConnectionPhase = 'discovery' | 'call';

const PHASE_BY_OPERATION: Readonly<Record<ConnectionOperation, ConnectionPhase>> = {
  initialize: 'discovery',
  'notifications/initialized': 'discovery',
  'tools/list': 'discovery',
  endpoint: 'discovery',
  'openapi/spec': 'discovery',
  'tools/call': 'call',
  'openapi/call': 'call',
};

/** Every operation of the vocabulary, in a stable order. */
export const CONNECTION_OPERATIONS: readonly ConnectionOperation[] = Object.freeze(
  Object.keys(PHASE_BY_OPERATION) as ConnectionOperation[],
);

/**
 * The phase whose limits govern an operation. The per-call client's handshake is discovery even
 * inside a tool call, so only `tools/call` and `openapi/call` are `call`.
 */
export function phaseOfOperation(operation: ConnectionOperation): ConnectionPhase {
  return PHASE_BY_OPERATION[operation];
}
