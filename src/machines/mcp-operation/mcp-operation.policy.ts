/**
 * Pure policy of the `mcpOperation` machine: the request ids, the fallback rule, resumption and
 * paging bounds, deadlines, the scope of a run's errors, and response decoding. What it sends is in
 * `mcp-operation.messages.ts`, what it answers the server's own requests in
 * `mcp-operation.server-requests.ts`. Pure: no I/O, no clock (time is passed in).
 */

import type { ToolCallerAnswered, ToolCallerCapabilities } from '../../binding/contract/caller.js';
import {
  type ConnectionOperation,
  type InputRequired,
  inputRequiredOf,
  type OperationScope,
  operationScope,
  parseCallToolResult,
  parseInitializeResult,
  parseListToolsResult,
  SESSION_REVISION,
  STATELESS_REVISION,
  unwrapJsonRpcResponse,
} from '../../wire/index.js';
import {
  createdTaskOf,
  DEFAULT_TASK_TIMEOUT_MS,
  TASK_CANCEL_TIMEOUT_MS,
} from '../../wire/mcp/tasks.js';
import type {
  DecodedResponse,
  McpOperationInput,
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
export function isSseFallbackStatus(status: number): boolean {
  return FALLBACK_STATUSES.has(status);
}

/** The wait before resuming an interrupted SSE response: the server's advice, clamped. */
export function resumeDelayMs(retryMs: number | undefined): number {
  if (retryMs === undefined || !Number.isFinite(retryMs) || retryMs < 0) {
    return DEFAULT_RESUME_DELAY_MS;
  }
  return Math.min(Math.floor(retryMs), MAX_RESUME_DELAY_MS);
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

/** Whether the call relays the upstream's requests to a caller that declared it can answer some. */
export function declaresCallerCapabilities(capabilities: ToolCallerCapabilities): boolean {
  return Object.keys(capabilities).length > 0;
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
 * validates the result with the MCP SDK's schemas; with `tasks`, a `tools/call` answered with a
 * task gives the task instead. Never throws.
 */
export function decodeRpcResponse(
  message: unknown,
  expectedId: number,
  scope: OperationScope,
  stateless = false,
  tasks = false,
): DecodedResponse {
  try {
    const result = unwrapJsonRpcResponse(message, expectedId, scope);
    // A call the server runs as a task (the 2026 flat answer, the 2025 nested one) is driven by
    // `mcpTask`; a malformed one is refused here.
    const task =
      tasks && scope.operation === 'tools/call'
        ? createdTaskOf(result, stateless ? STATELESS_REVISION : SESSION_REVISION, scope)
        : undefined;
    if (task !== undefined) return { ok: true, value: undefined, task };
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

/**
 * How long the run waits for `mcpTask` at most: the task deadline, one more request window and the
 * bounded `tasks/cancel`. The task machine ends itself well before; this only makes sure that no
 * wait of the run is without a deadline.
 */
export function taskBackstopMs(limits: McpOperationInput['limits']): number {
  return (
    (limits.task?.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS) +
    limits.request.timeoutMs +
    TASK_CANCEL_TIMEOUT_MS
  );
}
