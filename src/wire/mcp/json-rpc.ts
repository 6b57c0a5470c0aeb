/**
 * JSON-RPC envelopes for MCP, validated with the MCP SDK's own schemas (a plain result envelope,
 * which the schema would only copy, is taken as it stands). Pure: no I/O.
 * Every failure is a {@link ConnectionProtocolError} whose message never quotes upstream bodies.
 */
import {
  CallToolResultSchema,
  InitializeResultSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCResultResponseSchema,
  ToolSchema,
} from '@modelcontextprotocol/core';
import type { CallToolResult, Tool } from '../../binding/kernel/mcp-types.js';
import { isRecord } from '../../binding/kernel/type-guards.js';
import type { OperationScope } from '../core/operation.js';
import { ConnectionProtocolError } from '../errors/errors.js';

export type { CallToolResult, Tool };

/** The revision the 2025 wire asks for in `initialize`. */
export const SESSION_REVISION = '2025-11-25';

/** The revisions the 2025 wire accepts in an `initialize` answer, newest first. */
export const SESSION_REVISIONS: readonly string[] = Object.freeze([
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
]);

/** A JSON-RPC request as sent on the wire. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: number;
  method: string;
  params?: Record<string, unknown>;
}

/** A JSON-RPC notification (no id, no answer expected). */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

/** What a successful `initialize` tells the client. */
export interface InitializeOutcome {
  /** The negotiated version; always one the SDK supports. */
  protocolVersion: string;
  /** The server's self-description, when sent. */
  serverInfo?: { name: string; version: string };
  /**
   * The server offers task-augmented tool calls (`capabilities.tasks.requests.tools.call`,
   * 2025-11-25): without it a client MUST NOT ask a tool call for a task.
   */
  tasksOffered: boolean;
  /** The server says when its tool list changes (`capabilities.tools.listChanged`). */
  toolsListChanged: boolean;
}

/** The decoded result of `tools/list`: valid tools, and entries the SDK schema refused. */
export interface McpToolList {
  /** Entries that pass the SDK's `ToolSchema`. */
  readonly tools: readonly Tool[];
  /** Entries that failed it (reported, not fatal), with their name when they had a string one. */
  readonly rejected: readonly { readonly name?: string; readonly message: string }[];
  /** The cursor of the next page (present on a page, never on the merged listing). */
  readonly nextCursor?: string;
  /** The caching hint of an MCP 2026-07-28 listing (`ttlMs`, `cacheScope`), when it sent one. */
  readonly cache?: ToolListCache;
}

/**
 * How long a listing stays fresh and for whom (MCP 2026-07-28 caching): `ttlMs` from when it was
 * received (absent or negative reads as 0, stale at once); `private` results are for the same
 * authorization context only.
 */
export interface ToolListCache {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/** The caching hint of a result, when it carries `ttlMs` or `cacheScope`. */
function cacheHintOf(result: Record<string, unknown>): ToolListCache | undefined {
  if (result.ttlMs === undefined && result.cacheScope === undefined) return undefined;
  const ttl = result.ttlMs;
  return {
    ttlMs: typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl > 0 ? ttl : 0,
    // Anything but an explicit `public` is kept to the authorization context it came from.
    cacheScope: result.cacheScope === 'public' ? 'public' : 'private',
  };
}

/** A request envelope with this id. */
export function buildJsonRpcRequest(
  id: number,
  method: string,
  params?: Record<string, unknown>,
): JsonRpcRequest {
  return params === undefined
    ? { jsonrpc: '2.0', id, method }
    : { jsonrpc: '2.0', id, method, params };
}

/** A notification envelope. */
export function buildJsonRpcNotification(
  method: string,
  params?: Record<string, unknown>,
): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/** Parses a body as JSON; anything else is a {@link ConnectionProtocolError}. */
export function parseJsonText(text: string, scope: OperationScope): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConnectionProtocolError({
      ...scope,
      violation: 'sent an MCP response that was not JSON',
      cause: error,
    });
  }
}

/**
 * True for a JSON-RPC result or error object answering `id`. Server requests, notifications and
 * answers to other ids are false, so a stream reader can skip them.
 */
export function isResponseTo(message: unknown, id: number): boolean {
  return (
    isRecord(message) &&
    message.jsonrpc === '2.0' &&
    message.id === id &&
    !('method' in message) &&
    ('result' in message || 'error' in message)
  );
}

/**
 * True when `message` is a result answering `expectedId` that the SDK's
 * `JSONRPCResultResponseSchema` takes as it stands: exactly `jsonrpc: "2.0"`, that `id` and a
 * `result` object without `_meta`. Parsing such a message with the schema only copies it, so it
 * is taken without the copy; anything else (`_meta` to validate, an extra key, another id, an
 * error) goes through the schema.
 */
function isPlainResultTo(message: Record<string, unknown>, expectedId: number): boolean {
  const { result } = message;
  return (
    message.jsonrpc === '2.0' &&
    message.id === expectedId &&
    isRecord(result) &&
    result._meta === undefined &&
    Object.keys(message).length === 3
  );
}

/**
 * The `result` object of the response to `expectedId`. A JSON-RPC error becomes a
 * {@link ConnectionProtocolError} carrying `rpcCode`; an error without an id (e.g. a parse error)
 * is taken as the answer, since this exchange has one request in flight.
 */
export function unwrapJsonRpcResponse(
  message: unknown,
  expectedId: number,
  scope: OperationScope,
): Record<string, unknown> {
  const notResponse = (cause?: unknown): ConnectionProtocolError =>
    new ConnectionProtocolError({
      ...scope,
      violation: 'sent an MCP message that is not a JSON-RPC response',
      cause,
    });
  const mismatch = (): ConnectionProtocolError =>
    new ConnectionProtocolError({
      ...scope,
      violation: 'sent an MCP response with an id mismatch',
    });
  if (!isRecord(message)) throw notResponse();
  if (isPlainResultTo(message, expectedId)) return message.result as Record<string, unknown>;
  if ('error' in message) {
    // JSON-RPC 2.0 answers an unparseable request with `id: null`; the SDK schema spells it absent.
    const { id: rawId, ...rest } = message;
    const failure = JSONRPCErrorResponseSchema.safeParse(rawId === null ? rest : message);
    if (!failure.success) throw notResponse(failure.error);
    if (failure.data.id !== undefined && failure.data.id !== expectedId) throw mismatch();
    throw new ConnectionProtocolError({
      ...scope,
      violation: `answered with MCP error (code ${failure.data.error.code})`,
      rpcCode: failure.data.error.code,
      // The server's own words, for hosts and their spans; never projected.
      rpcMessage: failure.data.error.message,
      ...(failure.data.error.data === undefined ? {} : { rpcData: failure.data.error.data }),
    });
  }
  const success = JSONRPCResultResponseSchema.safeParse(message);
  if (!success.success) throw notResponse(success.error);
  if (success.data.id !== expectedId) throw mismatch();
  return success.data.result;
}

/**
 * Validates an `initialize` result with the SDK's schema and refuses a protocol version the SDK
 * does not support.
 */
export function parseInitializeResult(result: unknown, scope: OperationScope): InitializeOutcome {
  const parsed = InitializeResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new ConnectionProtocolError({
      ...scope,
      violation: 'sent an invalid MCP initialize result',
      cause: parsed.error,
    });
  }
  const { protocolVersion, serverInfo } = parsed.data;
  if (!SESSION_REVISIONS.includes(protocolVersion)) {
    throw new ConnectionProtocolError({
      ...scope,
      violation: 'negotiated an unsupported MCP protocol version',
    });
  }
  return {
    protocolVersion,
    serverInfo: { name: serverInfo.name, version: serverInfo.version },
    tasksOffered: offersTaskCalls(result),
    toolsListChanged: offersToolListChanges(result),
  };
}

/** Whether an `initialize` result declares `capabilities.tools.listChanged`. */
function offersToolListChanges(result: unknown): boolean {
  const capabilities = isRecord(result) ? result.capabilities : undefined;
  const tools = isRecord(capabilities) ? capabilities.tools : undefined;
  return isRecord(tools) && tools.listChanged === true;
}

/** Whether an `initialize` result declares `capabilities.tasks.requests.tools.call`. */
function offersTaskCalls(result: unknown): boolean {
  const capabilities = isRecord(result) ? result.capabilities : undefined;
  const tasks = isRecord(capabilities) ? capabilities.tasks : undefined;
  const requests = isRecord(tasks) ? tasks.requests : undefined;
  const tools = isRecord(requests) ? requests.tools : undefined;
  return isRecord(tools) && isRecord(tools.call);
}

/**
 * Validates a `tools/list` result. The envelope must hold a `tools` array; each entry is checked
 * on its own, so one malformed tool is reported in `rejected` and the rest still mount.
 */
export function parseListToolsResult(result: unknown, scope: OperationScope): McpToolList {
  if (!isRecord(result) || !Array.isArray(result.tools)) {
    throw new ConnectionProtocolError({ ...scope, violation: 'returned no MCP tools list' });
  }
  const tools: Tool[] = [];
  const rejected: { name?: string; message: string }[] = [];
  for (const entry of result.tools as unknown[]) {
    const parsed = ToolSchema.safeParse(entry);
    if (parsed.success) {
      tools.push(parsed.data);
      continue;
    }
    const name = isRecord(entry) && typeof entry.name === 'string' ? entry.name : undefined;
    const issue = parsed.error.issues[0];
    const where =
      issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    const message = `invalid MCP tool definition${where}: ${issue?.message ?? 'schema mismatch'}`;
    rejected.push(name === undefined ? { message } : { name, message });
  }
  const nextCursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
  const cache = cacheHintOf(result);
  return {
    tools,
    rejected,
    ...(nextCursor === undefined ? {} : { nextCursor }),
    ...(cache === undefined ? {} : { cache }),
  };
}

/** Validates a `tools/call` result with the SDK's `CallToolResultSchema`. */
export function parseCallToolResult(result: unknown, scope: OperationScope): CallToolResult {
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new ConnectionProtocolError({
      ...scope,
      violation: 'sent an invalid MCP tools/call result',
      cause: parsed.error,
    });
  }
  return parsed.data;
}
