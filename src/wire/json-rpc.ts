/**
 * JSON-RPC envelopes for MCP, validated with the MCP SDK's own schemas. Pure: no I/O.
 * Every failure is a {@link ConnectionProtocolError} whose message never quotes upstream bodies.
 */
import {
  type CallToolResult,
  CallToolResultSchema,
  InitializeResultSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCResultResponseSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
  ToolSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type ConnectionOperation,
  type ConnectionPhase,
  ConnectionProtocolError,
} from './errors.js';

export type { CallToolResult, Tool };
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS };

/** Which connection step a message belongs to, for errors. */
export interface RpcScope {
  /** The connection's configured name (for raw errors only). */
  connectionName: string;
  /** The step being parsed. */
  operation: ConnectionOperation;
  /** Its phase. */
  phase: ConnectionPhase;
  /** Raw bytes the operation had read when the message was parsed (reported by its errors). */
  observedReadBytes?: number;
}

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
}

/** Tools that validated, and entries that did not (reported, not fatal). */
export interface ListToolsOutcome {
  /** Entries that pass the SDK's `ToolSchema`. */
  tools: Tool[];
  /** Entries that failed it, with their name when they had a string one. */
  rejected: { name?: string; message: string }[];
  /** The cursor of the next page, when the server paginates its catalog. */
  nextCursor?: string;
}

function protocolError(
  scope: RpcScope,
  message: string,
  extra: { rpcCode?: number; cause?: unknown } = {},
): ConnectionProtocolError {
  return new ConnectionProtocolError(scope.connectionName, message, {
    operation: scope.operation,
    phase: scope.phase,
    ...(scope.observedReadBytes === undefined
      ? {}
      : { observedReadBytes: scope.observedReadBytes }),
    ...extra,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
export function parseJsonText(text: string, scope: RpcScope): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw protocolError(scope, `MCP response from "${scope.connectionName}" was not JSON`, {
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
 * The `result` object of the response to `expectedId`. A JSON-RPC error becomes a
 * {@link ConnectionProtocolError} carrying `rpcCode`; an error without an id (e.g. a parse error)
 * is taken as the answer, since this exchange has one request in flight.
 */
export function unwrapJsonRpcResponse(
  message: unknown,
  expectedId: number,
  scope: RpcScope,
): Record<string, unknown> {
  const notResponse = (cause?: unknown): ConnectionProtocolError =>
    protocolError(scope, `MCP message from "${scope.connectionName}" is not a JSON-RPC response`, {
      cause,
    });
  const mismatch = (): ConnectionProtocolError =>
    protocolError(scope, `MCP response id mismatch from "${scope.connectionName}"`);
  if (!isRecord(message)) throw notResponse();
  if ('error' in message) {
    // JSON-RPC 2.0 answers an unparseable request with `id: null`; the SDK schema spells it absent.
    const { id: rawId, ...rest } = message;
    const failure = JSONRPCErrorResponseSchema.safeParse(rawId === null ? rest : message);
    if (!failure.success) throw notResponse(failure.error);
    if (failure.data.id !== undefined && failure.data.id !== expectedId) throw mismatch();
    throw protocolError(
      scope,
      `MCP error from "${scope.connectionName}" (code ${failure.data.error.code})`,
      { rpcCode: failure.data.error.code },
    );
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
export function parseInitializeResult(result: unknown, scope: RpcScope): InitializeOutcome {
  const parsed = InitializeResultSchema.safeParse(result);
  if (!parsed.success) {
    throw protocolError(scope, `MCP initialize result from "${scope.connectionName}" is invalid`, {
      cause: parsed.error,
    });
  }
  const { protocolVersion, serverInfo } = parsed.data;
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    throw protocolError(
      scope,
      `MCP server "${scope.connectionName}" negotiated an unsupported protocol version`,
    );
  }
  return { protocolVersion, serverInfo: { name: serverInfo.name, version: serverInfo.version } };
}

/**
 * Validates a `tools/list` result. The envelope must hold a `tools` array; each entry is checked
 * on its own, so one malformed tool is reported in `rejected` and the rest still mount.
 */
export function parseListToolsResult(result: unknown, scope: RpcScope): ListToolsOutcome {
  if (!isRecord(result) || !Array.isArray(result.tools)) {
    throw protocolError(scope, `MCP server "${scope.connectionName}" returned no tools list`);
  }
  const tools: Tool[] = [];
  const rejected: ListToolsOutcome['rejected'] = [];
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
  return nextCursor === undefined ? { tools, rejected } : { tools, rejected, nextCursor };
}

/** Validates a `tools/call` result with the SDK's `CallToolResultSchema`. */
export function parseCallToolResult(result: unknown, scope: RpcScope): CallToolResult {
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) {
    throw protocolError(scope, `MCP tools/call result from "${scope.connectionName}" is invalid`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
