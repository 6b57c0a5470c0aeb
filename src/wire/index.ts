/**
 * The wire layer: pure HTTP mechanics used by machine actors (the fence, redirect refusal, bounded
 * reads, SSE frames, JSON-RPC envelopes, the guarded download fetch and its address policy) and
 * the errors they raise. Of the abortable-read primitives only `cancelBody` is re-exported, for the
 * actors that give up a body unread; the readers here and the file boundary import the rest
 * directly.
 */

export {
  type ConnectionOperation,
  type ConnectionPhase,
  type OperationScope,
  operationScope,
  type PhaseLimits,
  phaseOfOperation,
} from './core/operation.js';
export { redactUrl } from './core/redact.js';
export {
  addressRefusal,
  classifyAddress,
  type HostRefusal,
  hostRefusal,
  isLocalName,
} from './download/address-policy.js';
export { DownloadError, type DownloadErrorCode } from './download/download-error.js';
export {
  type DownloadFetchOptions,
  type DownloadResponse,
  fetchForDownload,
  type HostResolver,
  type ResolvedAddress,
} from './download/download-fetch.js';
export {
  ConnectionCredentialError,
  type CredentialProblem,
  credentialProblemOf,
} from './errors/credential-error.js';
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
} from './errors/errors.js';
export { type ConnectionFailureClass, failureClassOf } from './errors/failure-class.js';
export {
  ConnectionNetworkError,
  isRetryableNetworkFailure,
  type NetworkFailure,
} from './errors/network-error.js';
export {
  streamFailureIn,
  type WireFault,
  wireFailure,
  wireFaultOf,
} from './errors/wire-failure.js';
export { type ConnectionTls, connectionDispatcher, parseProxyOption } from './http/dispatchers.js';
export {
  describeRedirect,
  fetchWithoutRedirects,
  MAX_REDIRECT_PATH_CHARS,
} from './http/fetch-guarded.js';
export { sendOn, type WireRequest, type WireSend } from './http/http-client.js';
export { retryAfterMsOf, retryAfterOfResponse } from './http/retry-after.js';
export {
  type WireTraceContext,
  writeTraceHeaders,
  writeTraceMeta,
} from './http/trace-context.js';
export type { Dispatcher } from './http/undici.js';
export {
  assertInsideFence,
  createHostFence,
  type HostFence,
  isInsideFence,
  normalizeAllowHosts,
  parseConnectionUrl,
  resolveEndpointUrl,
} from './http/url-fence.js';
export {
  challengeOfResponse,
  MAX_WWW_AUTHENTICATE_CHARS,
  parseWwwAuthenticate,
} from './http/www-authenticate.js';
export {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  type CallToolResult,
  isResponseTo,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type McpToolList,
  parseCallToolResult,
  parseInitializeResult,
  parseJsonText,
  parseListToolsResult,
  SESSION_REVISION,
  SESSION_REVISIONS,
  type Tool,
  type ToolListCache,
  unwrapJsonRpcResponse,
} from './mcp/json-rpc.js';
export {
  headerParamsOf,
  type InputRequest,
  type InputRequired,
  inputRequiredOf,
  MCP_RPC_ERROR,
  type McpHeaderParam,
  META,
  mcpHeaderValue,
  mcpParamHeaders,
  type RpcErrorBody,
  rpcErrorOf,
  rpcRefusalViolation,
  STATELESS_LOG_LEVEL,
  STATELESS_REVISION,
  supportedVersionsOf,
} from './mcp/stateless.js';
export { cancelBody, type WireResponse } from './read/abortable-read.js';
export {
  drainBounded,
  MAX_ERROR_BODY_CHARS,
  type ReadBudget,
  readBoundedBytes,
  readBoundedText,
  readErrorExcerpt,
} from './read/bounded-body.js';
export { isEventStream, isJsonMediaType, mediaTypeEssence } from './read/media-type.js';
export { createSseFrameMeter } from './read/sse-frame-meter.js';
export {
  readSseBatches,
  readSseMessages,
  type SseBudget,
  type SseMessage,
} from './read/sse-reader.js';
