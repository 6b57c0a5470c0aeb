/**
 * Input mappers of `mcpOperation`'s invoked actors: the JSON-RPC messages and the exchange inputs
 * built from context. Pure: no I/O.
 */
import {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  LATEST_PROTOCOL_VERSION,
} from '../wire/index.js';
import type { ByteReporter, ExchangeInput } from './mcp-operation.actors.js';
import { INITIALIZE_ID, requestEnvelope } from './mcp-operation.policy.js';
import { failureContext } from './mcp-operation.setup.js';
import type { McpOperationContext } from './mcp-operation.types.js';

/** The input of an `exchange` actor for the operation in progress. */
export function exchangeInput(
  context: McpOperationContext,
  self: ByteReporter,
  shape: Pick<ExchangeInput, 'url' | 'method' | 'message' | 'expectId' | 'lastEventId'>,
): ExchangeInput {
  return {
    ...shape,
    scope: {
      connectionName: context.connectionName,
      operation: context.operation,
      phase: failureContext(context).phase,
      fence: context.fence,
      fetch: context.fetch,
    },
    reporter: self,
    headers: {
      staticHeaders: context.headers,
      token: context.token,
      sessionId: context.sessionId,
      protocolVersion: context.protocolVersion,
    },
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
