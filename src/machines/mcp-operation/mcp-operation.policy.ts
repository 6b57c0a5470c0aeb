/**
 * Pure policy of the `mcpOperation` machine: the fallback rule, resumption bounds, deadlines, the
 * messages and headers it sends, and response decoding (what it answers the server's own requests
 * is in `mcp-operation.server-requests.ts`, beside the I/O that posts it). Pure: no I/O, no clock (time is passed in).
 */

import type { ToolCallerAnswered, ToolCallerCapabilities } from '../../binding/contract/caller.js';
import {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  type ConnectionOperation,
  type InputRequired,
  inputRequiredOf,
  type JsonRpcNotification,
  type JsonRpcRequest,
  META,
  mcpHeaderValue,
  mcpParamHeaders,
  type OperationScope,
  operationScope,
  parseCallToolResult,
  parseInitializeResult,
  parseListToolsResult,
  SESSION_REVISION,
  STATELESS_REVISION,
  unwrapJsonRpcResponse,
  type WireTraceContext,
  writeTraceHeaders,
  writeTraceMeta,
} from '../../wire/index.js';
import type { SecretValue } from '../secret-value.js';
import type {
  DecodedResponse,
  McpRequest,
  McpRequestResult,
  McpToolList,
} from './mcp-operation.types.js';

/** The JSON-RPC id of `initialize`; every run is a fresh client, so ids restart at 1. */
export const INITIALIZE_ID = 1;
/** The JSON-RPC id of the run's request (`tools/list` or `tools/call`). */
export const REQUEST_ID = 2;

/** How many times a Streamable SSE response may be resumed with `Last-Event-ID`. */
export const MAX_STREAM_RESUMPTIONS = 3;
/** Wait before resuming when the server gave no `retry:` advice (the SDK's default, 1 s). */
export const DEFAULT_RESUME_DELAY_MS = 1_000;
/** Ceiling on a server-supplied `retry:` value: the server cannot make us sleep longer. */
export const MAX_RESUME_DELAY_MS = 5_000;
/** How many `tools/list` pages one discovery follows before refusing the catalog as unbounded. */
export const MAX_TOOL_LIST_PAGES = 50;
/** Bound on the best-effort `DELETE` that ends a stateful session during teardown. */
export const SESSION_END_TIMEOUT_MS = 2_000;

const FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

/**
 * The MCP backwards-compatibility rule (spec 2025-11-25, transports): a Streamable HTTP
 * `initialize` that fails with 400, 404 or 405 means "not a Streamable endpoint"; nothing else does.
 */
export function isFallbackStatus(status: number): boolean {
  return FALLBACK_STATUSES.has(status);
}

/** The wait before resuming an interrupted SSE response: the server's advice, clamped. */
export function resumeDelayMs(retryMs: number | undefined): number {
  if (retryMs === undefined || !Number.isFinite(retryMs) || retryMs < 0) {
    return DEFAULT_RESUME_DELAY_MS;
  }
  return Math.min(Math.floor(retryMs), MAX_RESUME_DELAY_MS);
}

/** What a POST accepts: a JSON answer or an SSE stream (Streamable HTTP). */
export const STREAMABLE_ACCEPT = 'application/json, text/event-stream';
/** What a GET that opens a stream accepts. */
export const SSE_ACCEPT = 'text/event-stream';

/** The secret-bearing header parts known so far; revealed only by {@link buildRequestHeaders}. */
export interface HeaderParts {
  readonly staticHeaders: Readonly<Record<string, SecretValue>>;
  readonly token: SecretValue | undefined;
  readonly sessionId: SecretValue | undefined;
  readonly protocolVersion: string | undefined;
  /** The operation's trace context, whose headers every request carries when it has them. */
  readonly trace?: WireTraceContext | undefined;
}

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

/** The name and version this client reports in `initialize`. */
export const CLIENT_INFO = Object.freeze({ name: 'stitchkit-transport', version: '0.1.0' });

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
  const declared: Record<string, unknown> = { ...capabilities };
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
  const meta: Record<string, unknown> = {
    [META.protocolVersion]: STATELESS_REVISION,
    [META.clientCapabilities]: declaredCapabilities(envelope.capabilities),
    [META.clientInfo]: { ...CLIENT_INFO },
  };
  writeTraceMeta(meta, envelope.trace);
  if (envelope.logLevel !== undefined) meta[META.logLevel] = envelope.logLevel;
  if (envelope.progressToken !== undefined && method === 'tools/call') {
    meta.progressToken = envelope.progressToken;
  }
  const withMeta: Record<string, unknown> = { ...params };
  withMeta._meta = meta;
  // A retry after input_required: the answers, and the server's state exactly as it was sent.
  if (answered !== undefined) {
    withMeta.inputResponses = answered.inputResponses;
    if (answered.requestState !== undefined) withMeta.requestState = answered.requestState;
  }
  return buildJsonRpcRequest(id, method, withMeta);
}

/** What a retry after `input_required` carries: the caller's answers and the server's state. */
export interface AnsweredInput {
  readonly inputResponses: Readonly<Record<string, unknown>>;
  readonly requestState: string | undefined;
}

/**
 * What a retry that brings answers starts from: the server's state as an earlier attempt was
 * sent it (the questions themselves stay with the caller that answered them).
 */
export function answeredState(answered: ToolCallerAnswered | undefined): InputRequired | undefined {
  if (answered === undefined) return undefined;
  return answered.requestState === undefined
    ? { inputRequests: {} }
    : { inputRequests: {}, requestState: answered.requestState };
}

/**
 * The operation scope of a run's errors: the connection and the step, and the status that sent it
 * to legacy HTTP+SSE when it fell back (so the legacy attempt's failure names both steps).
 */
export function runScopeOf(
  context: {
    readonly connectionName: string;
    readonly operation: ConnectionOperation;
    readonly fallbackStatus: number | undefined;
  },
  observedReadBytes?: number,
): OperationScope {
  const { connectionName, operation, phase } = operationScope(
    context.connectionName,
    context.operation,
  );
  return {
    connectionName,
    operation,
    phase,
    ...(observedReadBytes === undefined ? {} : { observedReadBytes }),
    ...(context.fallbackStatus === undefined ? {} : { fallbackStatus: context.fallbackStatus }),
  };
}

/** How many `input_required` rounds one call answers before it refuses the server (the SDK's). */
export const MAX_INPUT_ROUNDS = 10;

/** The tool a request names, for the `Mcp-Name` header of a stateless `tools/call`. */
export function requestNameOf(request: McpRequest): string | undefined {
  return request.method === 'tools/call' ? request.params.name : undefined;
}

/** The `Mcp-Param-*` headers of a stateless `tools/call`, when its tool mirrors any argument. */
export function requestParamHeadersOf(request: McpRequest): Record<string, string> | undefined {
  if (request.method !== 'tools/call' || request.headerParams === undefined) return undefined;
  if (request.headerParams.length === 0) return undefined;
  return mcpParamHeaders(request.headerParams, request.params.arguments);
}

/** Whether the call relays the upstream's requests to a caller that declared it can answer some. */
export function declaresCallerCapabilities(capabilities: ToolCallerCapabilities): boolean {
  return Object.keys(capabilities).length > 0;
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

/**
 * The 2025-11-25 transport's answer for a session the server no longer knows (it restarted, or
 * ended the session): a 404 to a request that carried an `Mcp-Session-Id`. The server did not
 * process that request, and the client MUST start a new session with a fresh `initialize`
 * (decision 0037).
 */
export function isSessionLostStatus(status: number): boolean {
  return status === 404;
}

/** The run's request under JSON-RPC id `id` (`tools/list` with the page cursor, or `tools/call`). */
export function requestMessage(
  request: McpRequest,
  id: number,
  cursor: string | undefined,
  progressToken?: string | number,
  trace?: WireTraceContext,
): JsonRpcRequest {
  const { method, params } = requestEnvelope(request, cursor);
  const progress = requestProgressToken(request, progressToken);
  if (progress === undefined && trace === undefined) return buildJsonRpcRequest(id, method, params);
  // The token and the trace context are set after the copies, so neither the caller's `_meta` nor
  // its params can replace them; assigned rather than written after a spread (docs/architecture.md,
  // "Per-call objects").
  const meta: Record<string, unknown> = { ...(params?._meta as Record<string, unknown>) };
  writeTraceMeta(meta, trace);
  if (progress !== undefined) meta.progressToken = progress;
  const withMeta: Record<string, unknown> = { ...params };
  withMeta._meta = meta;
  return buildJsonRpcRequest(id, method, withMeta);
}

/**
 * The progress report in `message` when it is a `notifications/progress` for `progressToken`,
 * else `undefined`. A report without a numeric `progress` is not one.
 */
export function progressOf(
  message: unknown,
  progressToken: string | number | undefined,
): { progress: number; total?: number; message?: string } | undefined {
  if (progressToken === undefined || typeof message !== 'object' || message === null) {
    return undefined;
  }
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'notifications/progress' || typeof params !== 'object' || params === null) {
    return undefined;
  }
  const report = params as Record<string, unknown>;
  if (report.progressToken !== progressToken || typeof report.progress !== 'number') {
    return undefined;
  }
  return {
    progress: report.progress,
    ...(typeof report.total === 'number' ? { total: report.total } : {}),
    ...(typeof report.message === 'string' ? { message: report.message } : {}),
  };
}

/** The JSON-RPC method name and params of the run's request (a `tools/list` page cursor too). */
export function requestEnvelope(
  request: McpRequest,
  cursor: string | undefined,
): { method: string; params: Record<string, unknown> } {
  if (request.method === 'tools/call')
    return { method: 'tools/call', params: { ...request.params } };
  return { method: 'tools/list', params: cursor === undefined ? {} : { cursor } };
}

/** The cursor of the next `tools/list` page, when the decoded result announces one. */
export function nextCursorOf(value: unknown): string | undefined {
  const cursor = (value as { nextCursor?: unknown } | undefined)?.nextCursor;
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

/**
 * Appends one `tools/list` page to the pages collected so far. The listing is as fresh as its
 * stalest page, and private when any page is.
 */
export function mergeToolPages(collected: McpToolList | undefined, page: McpToolList): McpToolList {
  const cache = mergeCache(collected?.cache, page.cache);
  const tools = collected === undefined ? page.tools : [...collected.tools, ...page.tools];
  const rejected =
    collected === undefined ? page.rejected : [...collected.rejected, ...page.rejected];
  return cache === undefined ? { tools, rejected } : { tools, rejected, cache };
}

function mergeCache(
  a: McpToolList['cache'],
  b: McpToolList['cache'],
): McpToolList['cache'] | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return {
    ttlMs: Math.min(a.ttlMs, b.ttlMs),
    cacheScope: a.cacheScope === 'public' && b.cacheScope === 'public' ? 'public' : 'private',
  };
}

/** The run's result: the merged listing for `tools/list` (this page last), else the call result. */
export function requestResult(
  request: McpRequest,
  collected: McpToolList | undefined,
  value: unknown,
): McpRequestResult {
  return request.method === 'tools/list'
    ? mergeToolPages(collected, value as McpToolList)
    : (value as McpRequestResult);
}

/**
 * Decodes one JSON-RPC response for the operation that awaits it: unwraps the envelope and
 * validates the result with the MCP SDK's schemas. Never throws.
 */
export function decodeRpcResponse(
  message: unknown,
  expectedId: number,
  scope: OperationScope,
  stateless = false,
): DecodedResponse {
  try {
    const result = unwrapJsonRpcResponse(message, expectedId, scope);
    const inputRequired = stateless ? inputRequiredOf(result, scope) : undefined;
    if (inputRequired !== undefined) return { ok: true, value: undefined, inputRequired };
    const value = parseResult(result, scope);
    return stateless && result.resultType === undefined
      ? { ok: true, value, untyped: true }
      : { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A result validated with the MCP SDK's schema of the operation that awaits it. */
function parseResult(result: Record<string, unknown>, scope: OperationScope): unknown {
  switch (scope.operation) {
    case 'initialize':
      return parseInitializeResult(result, scope);
    case 'tools/list':
      return parseListToolsResult(result, scope);
    case 'tools/call':
      return parseCallToolResult(result, scope);
    default:
      return result;
  }
}

/**
 * Whether giving up the operation in progress must be announced with `notifications/cancelled`:
 * only the run's request, never the handshake, and not a request whose answer the legacy stream
 * already brought (the specification reserves the notice for requests believed in progress).
 */
export function isCancellableRequest(
  operation: string,
  answered: boolean,
  stateless = false,
): boolean {
  // On the stateless wire closing the request's stream is the cancellation (MCP 2026-07-28).
  return !stateless && !answered && (operation === 'tools/call' || operation === 'tools/list');
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

/**
 * When the request's deadline fires for a window that starts `now`: `timeoutMs` later, never
 * later than `maxTotalTimeoutMs` after the request started (when set).
 */
export function requestWindowEnd(
  startedAt: number,
  now: number,
  limits: { readonly timeoutMs: number; readonly maxTotalTimeoutMs?: number },
): number {
  const window = now + limits.timeoutMs;
  return limits.maxTotalTimeoutMs === undefined
    ? window
    : Math.min(window, startedAt + limits.maxTotalTimeoutMs);
}
