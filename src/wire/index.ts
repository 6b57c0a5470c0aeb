/**
 * The wire layer: pure HTTP mechanics used by machine actors. Every export is named; internal
 * helpers (the abortable read primitives) are exported too because machine actors race their own
 * waits with the same rules.
 */
export { raceAbort, readChunk, releaseReader, throwIfAborted } from './abortable-read.js';
export {
  cancelBody,
  drainBounded,
  MAX_ERROR_BODY_CHARS,
  type ReadBudget,
  readBoundedBytes,
  readBoundedText,
  readErrorExcerpt,
  responseTooLarge,
} from './bounded-body.js';
export {
  CONNECTION_ERROR_CODES,
  ConnectionAuthorizationRequiredError,
  ConnectionBudgetExceededError,
  ConnectionError,
  type ConnectionFailureContext,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
} from './errors.js';
export { fetchWithoutRedirects, type WireRequest, type WireScope } from './fetch-guarded.js';
export {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  type CallToolResult,
  type InitializeOutcome,
  isResponseTo,
  type JsonRpcNotification,
  type JsonRpcRequest,
  LATEST_PROTOCOL_VERSION,
  type ListToolsOutcome,
  parseCallToolResult,
  parseInitializeResult,
  parseJsonText,
  parseListToolsResult,
  type RpcScope,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
  unwrapJsonRpcResponse,
} from './json-rpc.js';
export {
  CONNECTION_OPERATIONS,
  type ConnectionOperation,
  type ConnectionPhase,
  phaseOfOperation,
} from './operation.js';
export { createSseFrameMeter, type SseFrameMeter } from './sse-frame-meter.js';
export { readSseMessages, type SseBudget, type SseMessage } from './sse-reader.js';
export {
  assertInsideFence,
  createHostFence,
  type HostFence,
  isInsideFence,
  parseConnectionUrl,
  redactUrl,
  resolveEndpointUrl,
} from './url-fence.js';
