/**
 * The wire layer: pure HTTP mechanics used by machine actors (the fence, redirect refusal, bounded
 * reads, SSE frames, JSON-RPC envelopes, the guarded download fetch and its address policy) and
 * the errors they raise. Of the abortable-read primitives only `cancelBody` is re-exported, for the
 * actors that give up a body unread; the readers here and the file boundary import the rest
 * directly.
 */
export { cancelBody, type WireResponse } from './abortable-read.js';
export {
  addressRefusal,
  classifyAddress,
  type HostRefusal,
  hostRefusal,
  isLocalName,
} from './address-policy.js';
export {
  drainBounded,
  MAX_ERROR_BODY_CHARS,
  type ReadBudget,
  readBoundedBytes,
  readBoundedText,
  readErrorExcerpt,
} from './bounded-body.js';
export {
  ConnectionCredentialError,
  type CredentialProblem,
  credentialProblemOf,
} from './credential-error.js';
export { type ConnectionTls, connectionDispatcher, parseProxyOption } from './dispatchers.js';
export { DownloadError, type DownloadErrorCode } from './download-error.js';
export {
  type DownloadFetchOptions,
  type DownloadResponse,
  fetchForDownload,
  type HostResolver,
  type ResolvedAddress,
} from './download-fetch.js';
export {
  type AuthChallenge,
  ConnectionAuthorizationRequiredError,
  ConnectionError,
  type ConnectionErrorScope,
  ConnectionInputRequiredError,
  ConnectionOperationError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
} from './errors.js';
export { type ConnectionFailureClass, failureClassOf } from './failure-class.js';
export {
  describeRedirect,
  fetchWithoutRedirects,
  MAX_REDIRECT_PATH_CHARS,
} from './fetch-guarded.js';
export { sendOn, type WireRequest, type WireSend } from './http-client.js';
export {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  type CallToolResult,
  isResponseTo,
  type JsonRpcNotification,
  type JsonRpcRequest,
  LATEST_PROTOCOL_VERSION,
  type McpToolList,
  parseCallToolResult,
  parseInitializeResult,
  parseJsonText,
  parseListToolsResult,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
  type ToolListCache,
  unwrapJsonRpcResponse,
} from './json-rpc.js';
export { isEventStream, isJsonMediaType, mediaTypeEssence } from './media-type.js';
export {
  headerParamsOf,
  type InputRequest,
  type InputRequired,
  inputRequiredOf,
  type McpHeaderParam,
  META,
  MODERN_ERROR,
  MODERN_LOG_LEVEL,
  MODERN_PROTOCOL_VERSION,
  mcpHeaderValue,
  mcpParamHeaders,
  type RpcErrorBody,
  rpcErrorOf,
  rpcRefusalViolation,
  supportedVersionsOf,
} from './modern-mcp.js';
export {
  ConnectionNetworkError,
  isRetryableNetworkFailure,
  type NetworkFailure,
} from './network-error.js';
export {
  type ConnectionOperation,
  type ConnectionPhase,
  type OperationScope,
  operationScope,
  type PhaseLimits,
  phaseOfOperation,
} from './operation.js';
export { redactUrl } from './redact.js';
export { retryAfterMsOf, retryAfterOfResponse } from './retry-after.js';
export { createSseFrameMeter } from './sse-frame-meter.js';
export {
  readSseBatches,
  readSseMessages,
  type SseBudget,
  type SseMessage,
} from './sse-reader.js';
export {
  type WireTraceContext,
  writeTraceHeaders,
  writeTraceMeta,
} from './trace-context.js';
export type { Dispatcher } from './undici.js';
export {
  assertInsideFence,
  createHostFence,
  type HostFence,
  isInsideFence,
  normalizeAllowHosts,
  parseConnectionUrl,
  resolveEndpointUrl,
} from './url-fence.js';
export { streamFailureIn, type WireFault, wireFailure, wireFaultOf } from './wire-failure.js';
export {
  challengeOfResponse,
  MAX_WWW_AUTHENTICATE_CHARS,
  parseWwwAuthenticate,
} from './www-authenticate.js';
