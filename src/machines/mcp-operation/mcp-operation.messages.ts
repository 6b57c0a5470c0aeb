/**
 * What `mcpOperation` puts on the wire: the request headers (the only place its secrets are
 * revealed), and the JSON-RPC messages of each wire: `initialize`, `notifications/initialized`,
 * the run's request (with the stateless wire's `_meta` envelope and `Mcp-*` headers), and
 * `notifications/cancelled`. Pure: no I/O.
 */
import type { ToolCallerCapabilities } from '../../binding/contract/caller.js';
import {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  type JsonRpcNotification,
  type JsonRpcRequest,
  META,
  mcpHeaderValue,
  mcpParamHeaders,
  SESSION_REVISION,
  STATELESS_REVISION,
  type WireTraceContext,
  writeTraceHeaders,
  writeTraceMeta,
} from '../../wire/index.js';
import { CLIENT_INFO } from '../../wire/mcp/client-info.js';
import {
  TASKS_EXTENSION,
  type TaskRequest,
  type TaskRevision,
  withTaskAugmentation,
  withTasksExtension,
} from '../../wire/mcp/tasks.js';
import { INITIALIZE_ID } from './mcp-operation.policy.js';
import type { HeaderParts, McpRequest } from './mcp-operation.types.js';
/** What a POST accepts: a JSON answer or an SSE stream (Streamable HTTP). */
export const STREAMABLE_ACCEPT = 'application/json, text/event-stream';
/** What a GET that opens a stream accepts. */
export const SSE_ACCEPT = 'text/event-stream';

/** The headers that frame a stateless request (MCP 2026-07-28); absent on the 2025 wires. */
export interface StatelessFraming {
  /** The stateless wire's `Mcp-Method`. */
  readonly mcpMethod: string;
  /** The stateless wire's `Mcp-Name`, the tool a `tools/call` names. */
  readonly mcpName?: string;
  /** The stateless wire's `Mcp-Param-*` headers, already encoded. */
  readonly mcpParams?: Readonly<Record<string, string>>;
}

/** How one exchange frames its body and its answer. */
export interface HeaderFraming extends Partial<StatelessFraming> {
  readonly accept: string;
  readonly contentType?: string;
  readonly lastEventId?: string;
}

/**
 * The connection's request headers for one exchange; the only place secrets are revealed. The
 * parts and the framing come apart, so no caller builds a merged object per request.
 */
export function buildRequestHeaders(
  parts: HeaderParts,
  framing: HeaderFraming,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parts.staticHeaders)) headers[name] = value.reveal();
  writeTraceHeaders(headers, parts.trace);
  // Protocol headers are written after the static ones so configuration cannot break framing.
  headers.accept = framing.accept;
  if (framing.contentType !== undefined) headers['content-type'] = framing.contentType;
  if (parts.token !== undefined) headers.authorization = `Bearer ${parts.token.reveal()}`;
  if (parts.sessionId !== undefined) headers['mcp-session-id'] = parts.sessionId.reveal();
  if (parts.protocolVersion !== undefined) headers['mcp-protocol-version'] = parts.protocolVersion;
  if (framing.lastEventId !== undefined) headers['last-event-id'] = framing.lastEventId;
  if (framing.mcpMethod !== undefined) headers['mcp-method'] = framing.mcpMethod;
  if (framing.mcpName !== undefined) headers['mcp-name'] = mcpHeaderValue(framing.mcpName);
  if (framing.mcpParams !== undefined) Object.assign(headers, framing.mcpParams);
  return headers;
}

/**
 * The `initialize` request: the SDK's latest protocol version and the caller's capabilities (none
 * when nobody can answer). `roots.listChanged` is never declared: a per-call client cannot relay
 * the caller's later changes.
 */
export function initializeMessage(
  capabilities: ToolCallerCapabilities = {},
  trace?: WireTraceContext,
): JsonRpcRequest {
  const params: Record<string, unknown> = {
    protocolVersion: SESSION_REVISION,
    capabilities: declaredCapabilities(capabilities),
    clientInfo: { ...CLIENT_INFO },
  };
  if (trace !== undefined) params._meta = { ...trace.meta };
  return buildJsonRpcRequest(INITIALIZE_ID, 'initialize', params);
}

/**
 * The capabilities a client declares for the caller: what it declared, without
 * `roots.listChanged` (a per-call client cannot relay the caller's later changes).
 */
function declaredCapabilities(capabilities: ToolCallerCapabilities): Record<string, unknown> {
  const declared: Record<string, unknown> = Object.assign<Record<string, unknown>, object>(
    {},
    capabilities,
  );
  if (capabilities.roots !== undefined) {
    const { listChanged: _ignored, ...roots } = capabilities.roots;
    declared.roots = roots;
  }
  return declared;
}

/** What a stateless request's `_meta` envelope says of the call beside the protocol version. */
export interface StatelessEnvelope {
  /** Sent with `tools/call` when someone listens to progress. */
  readonly progressToken: string | number | undefined;
  /** The capabilities the call's caller declared. */
  readonly capabilities: ToolCallerCapabilities;
  /** The log level asked for, when the caller takes logs. */
  readonly logLevel: string | undefined;
  /** The operation's trace context, written beside the envelope's own keys. */
  readonly trace?: WireTraceContext | undefined;
}

/**
 * The run's request on the stateless wire (MCP 2026-07-28): the same method and params as
 * {@link requestMessage}, with the `_meta` envelope every stateless request carries instead of a
 * session: the protocol version, the capabilities the call's caller declared, this client's
 * identity, the progress token when someone listens, and the log level when someone reads logs.
 */
export function statelessRequestMessage(
  request: McpRequest,
  id: number,
  cursor: string | undefined,
  envelope: StatelessEnvelope,
  answered?: AnsweredInput,
): JsonRpcRequest {
  const { method, params } = requestEnvelope(request, cursor);
  // A call may become a task: the tasks extension is declared on it, and the server decides; a
  // `tasks/*` request must declare it too.
  const meta = statelessMeta(
    statelessCapabilities(envelope.capabilities, method !== 'tools/list'),
    envelope.trace,
  );
  if (envelope.logLevel !== undefined) meta[META.logLevel] = envelope.logLevel;
  if (envelope.progressToken !== undefined && method === 'tools/call') {
    meta.progressToken = envelope.progressToken;
  }
  const withMeta: Record<string, unknown> = Object.assign({}, params);
  withMeta._meta = meta;
  // A retry after input_required: the answers, and the server's state exactly as it was sent.
  if (answered !== undefined) {
    withMeta.inputResponses = answered.inputResponses;
    if (answered.requestState !== undefined) withMeta.requestState = answered.requestState;
  }
  return buildJsonRpcRequest(id, method, withMeta);
}

/**
 * The `subscriptions/listen` request of a live catalog's stream (MCP 2026-07-28): the stateless
 * envelope with no caller capabilities, asking for tool list changes only.
 */
export function subscriptionsListenMessage(id: number): JsonRpcRequest {
  return buildJsonRpcRequest(id, 'subscriptions/listen', {
    notifications: { toolsListChanged: true },
    _meta: statelessMeta(DECLARES_NOTHING, undefined),
  });
}

/** A caller that declares nothing declares this, on every request but a `tasks/*` one. */
const DECLARES_NOTHING: Readonly<Record<string, unknown>> = Object.freeze({});
/** A caller that declares nothing declares this on a `tasks/*` request. */
const DECLARES_TASKS_ONLY: Readonly<Record<string, unknown>> = Object.freeze({
  extensions: Object.freeze({ [TASKS_EXTENSION]: Object.freeze({}) }),
});

/**
 * The capabilities a stateless request declares for its caller, the tasks extension added when
 * `withTasks`: a caller that declares nothing (most calls) gets one of two shared, frozen objects
 * instead of new ones per request.
 */
function statelessCapabilities(
  capabilities: ToolCallerCapabilities,
  withTasks: boolean,
): Readonly<Record<string, unknown>> {
  if (Object.keys(capabilities).length === 0) {
    return withTasks ? DECLARES_TASKS_ONLY : DECLARES_NOTHING;
  }
  const declared = declaredCapabilities(capabilities);
  return withTasks ? withTasksExtension(declared) : declared;
}

/** The `_meta` envelope every stateless request carries: version, capabilities, client, trace. */
function statelessMeta(
  capabilities: Readonly<Record<string, unknown>>,
  trace: WireTraceContext | undefined,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [META.protocolVersion]: STATELESS_REVISION,
    [META.clientCapabilities]: capabilities,
    // Frozen and only ever serialised: shared by every request.
    [META.clientInfo]: CLIENT_INFO,
  };
  writeTraceMeta(meta, trace);
  return meta;
}

/**
 * A `tasks/*` request of a call that became a task, under JSON-RPC id `id`. On 2026-07-28 it
 * carries the stateless envelope with the tasks extension declared (the server MUST refuse a
 * `tasks/*` request without it); on 2025-11-25 it is the bare request, sent in the task's session.
 */
export function taskRequestMessage(
  request: TaskRequest,
  id: number,
  revision: TaskRevision,
  capabilities: ToolCallerCapabilities,
  trace: WireTraceContext | undefined,
): JsonRpcRequest {
  if (revision !== STATELESS_REVISION)
    return buildJsonRpcRequest(id, request.method, request.params);
  const params: Record<string, unknown> = Object.assign({}, request.params);
  params._meta = statelessMeta(statelessCapabilities(capabilities, true), trace);
  return buildJsonRpcRequest(id, request.method, params);
}

/** What a retry after `input_required` carries: the caller's answers and the server's state. */
export interface AnsweredInput {
  readonly inputResponses: Readonly<Record<string, unknown>>;
  readonly requestState: string | undefined;
}

/**
 * What a request names, for the `Mcp-Name` header of a stateless request: the tool of a
 * `tools/call`, the task of a `tasks/*` request.
 */
export function requestNameOf(request: McpRequest): string | undefined {
  if (request.method === 'tools/list') return undefined;
  return request.method === 'tools/call' ? request.params.name : request.params.taskId;
}

/** The `Mcp-Param-*` headers of a stateless `tools/call`, when its tool mirrors any argument. */
export function requestParamHeadersOf(request: McpRequest): Record<string, string> | undefined {
  if (request.method !== 'tools/call' || request.headerParams === undefined) return undefined;
  if (request.headerParams.length === 0) return undefined;
  return mcpParamHeaders(request.headerParams, request.params.arguments);
}

/** The `notifications/initialized` notification. */
export function initializedMessage(): JsonRpcNotification {
  return buildJsonRpcNotification('notifications/initialized');
}

/**
 * The progress token the run's request carries: a `tools/call` asks for progress when someone
 * listens (a listing never does), so only then is there progress to relay, on any stream.
 */
export function requestProgressToken(
  request: McpRequest,
  progressToken: string | number | undefined,
): string | number | undefined {
  return request.method === 'tools/call' ? progressToken : undefined;
}

/** The run's request under JSON-RPC id `id` (`tools/list` with the page cursor, or `tools/call`). */
export function requestMessage(
  request: McpRequest,
  id: number,
  cursor: string | undefined,
  progressToken?: string | number,
  trace?: WireTraceContext,
): JsonRpcRequest {
  const { method, params } = requestEnvelope(request, cursor, true);
  const progress = requestProgressToken(request, progressToken);
  if (progress === undefined && trace === undefined) return buildJsonRpcRequest(id, method, params);
  // The token and the trace context are set after the copies, so neither the caller's `_meta` nor
  // its params can replace them; copied with `Object.assign`, not a spread, before the stores
  // (docs/architecture.md, "Per-call objects").
  const meta: Record<string, unknown> = Object.assign({}, params?._meta);
  writeTraceMeta(meta, trace);
  if (progress !== undefined) meta.progressToken = progress;
  const withMeta: Record<string, unknown> = Object.assign({}, params);
  withMeta._meta = meta;
  return buildJsonRpcRequest(id, method, withMeta);
}

/**
 * The JSON-RPC method name and params of the run's request (a `tools/list` page cursor too), with
 * `params.task` when `augment` and the request asks for a task.
 */
export function requestEnvelope(
  request: McpRequest,
  cursor: string | undefined,
  augment = false,
): { method: string; params: Record<string, unknown> } {
  if (request.method === 'tools/call') {
    // A 2025 task-augmented call (`augment`: the session wires) asks for a task kept as long as the call waits for it.
    return {
      method: 'tools/call',
      params:
        request.task === undefined || !augment
          ? { ...request.params }
          : withTaskAugmentation(request.params, request.task.ttlMs),
    };
  }
  if (request.method !== 'tools/list')
    return { method: request.method, params: { ...request.params } };
  return { method: 'tools/list', params: cursor === undefined ? {} : { cursor } };
}

/**
 * The `notifications/cancelled` for the request `requestId`. The reason is a fixed sentence by
 * cause: the caller's own abort reason may hold anything, so it never leaves the process.
 */
export function cancelledMessage(
  requestId: number,
  cause: 'cancelled' | 'timeout' | undefined,
): JsonRpcNotification {
  return buildJsonRpcNotification('notifications/cancelled', {
    requestId,
    reason:
      cause === 'timeout' ? 'The client timed out the request' : 'The client cancelled the request',
  });
}
