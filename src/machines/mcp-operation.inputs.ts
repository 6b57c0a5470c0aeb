/**
 * Input mappers of `mcpOperation`'s invoked actors: the JSON-RPC messages and the exchange inputs
 * built from context. Pure: no I/O.
 */
import {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  LATEST_PROTOCOL_VERSION,
} from '../wire/index.js';
import type {
  ByteReporter,
  DeleteSessionInput,
  ExchangeInput,
  ExchangeScope,
  HeaderParts,
  LegacyStreamInput,
} from './mcp-operation.actors.js';
import { INITIALIZE_ID, requestEnvelope } from './mcp-operation.policy.js';
import { failureContext } from './mcp-operation.setup.js';
import type { McpOperationContext } from './mcp-operation.types.js';

/** Who is talking and for which operation: the scope every actor of the run shares. */
function exchangeScope(context: McpOperationContext): ExchangeScope {
  return {
    connectionName: context.connectionName,
    operation: context.operation,
    phase: failureContext(context).phase,
    fence: context.fence,
    fetch: context.fetch,
  };
}

/** The header parts known so far (secrets still wrapped). */
function headerParts(context: McpOperationContext): HeaderParts {
  return {
    staticHeaders: context.headers,
    token: context.token,
    sessionId: context.sessionId,
    protocolVersion: context.protocolVersion,
  };
}

/** The input of an `exchange` actor for the operation in progress. */
export function exchangeInput(
  context: McpOperationContext,
  self: ByteReporter,
  shape: Pick<ExchangeInput, 'url' | 'method' | 'message' | 'expectId' | 'lastEventId'>,
): ExchangeInput {
  return {
    ...shape,
    scope: exchangeScope(context),
    reporter: self,
    headers: headerParts(context),
    maxBytes: context.maxBytes,
    alreadyRead: context.readBytes,
  };
}

/** The `initialize` request this client sends. */
export const initializeMessage = (context: McpOperationContext) =>
  buildJsonRpcRequest(INITIALIZE_ID, 'initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { ...context.clientInfo },
  });

/** The run's request (`tools/list` with the page cursor, or `tools/call`). */
export const requestMessage = (context: McpOperationContext) => {
  const { method, params } = requestEnvelope(context.request, context.cursor);
  return buildJsonRpcRequest(context.pendingId, method, params);
};

/** The `notifications/initialized` notification. */
export const initializedMessage = () => buildJsonRpcNotification('notifications/initialized');

/** Where the request's own URL is: the connection URL, or the legacy endpoint. */
export const postUrl = (context: McpOperationContext) => context.endpoint ?? context.url;

/**
 * The input of the `legacyStream` actor, opened while the operation is `endpoint`. Per-operation
 * budgets are enforced by the machine (`exceedsReadBudget`); the stream only bounds one frame.
 */
export function legacyStreamInput(context: McpOperationContext): LegacyStreamInput {
  return {
    scope: exchangeScope(context),
    url: context.url,
    headers: headerParts(context),
    maxFrameBytes: Math.max(
      context.limits.handshake.maxResponseBytes,
      context.limits.request.maxResponseBytes,
    ),
    maxErrorBytes: context.limits.handshake.maxResponseBytes,
  };
}

/** The input of the `deleteSession` actor that ends a stateful session. */
export function deleteSessionInput(context: McpOperationContext): DeleteSessionInput {
  return { scope: exchangeScope(context), url: context.url, headers: headerParts(context) };
}
