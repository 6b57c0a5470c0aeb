/**
 * The wire layer as the layers above import it: the operation scope, the connection errors, the
 * HTTP client and fence, bounded and SSE reads, and the MCP envelopes. It re-exports only what
 * some file imports through it; the download fetch, its address policy and the finer helpers are
 * imported from their own modules.
 */

export { MCP_RPC_ERROR } from '../binding/kernel/rpc-codes.js';
export {
  type ConnectionOperation,
  type ConnectionPhase,
  type OperationScope,
  operationScope,
  type PhaseLimits,
  phaseOfOperation,
} from './core/operation.js';
export { challengeField, challengeOfResponse } from './core/www-authenticate.js';
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
export { failureClassOf } from './errors/failure-class.js';
export {
  ConnectionNetworkError,
  isRetryableNetworkFailure,
  type NetworkFailure,
} from './errors/network-error.js';
export {
  ConnectionTaskCreatedError,
  ConnectionTaskError,
  type TaskEnd,
  type TaskErrorFields,
} from './errors/task-error.js';
export { streamFailureIn } from './errors/wire-failure.js';
export { type ConnectionTls, connectionSend, parseProxyOption } from './http/dispatchers.js';
export { fetchWithoutRedirects } from './http/fetch-guarded.js';
export type { WireRequest, WireSend } from './http/http-client.js';
export { isUnauthorizedStatus } from './http/refusal.js';
export { retryAfterOfResponse } from './http/retry-after.js';
export { type WireTraceContext, writeTraceHeaders, writeTraceMeta } from './http/trace-context.js';
export type { Dispatcher } from './http/undici-lazy.js';
export {
  createHostFence,
  type HostFence,
  isInsideFence,
  normalizeAllowHosts,
  parseConnectionUrl,
  resolveEndpointUrl,
} from './http/url-fence.js';
export {
  buildJsonRpcNotification,
  buildJsonRpcRequest,
  type InitializeOutcome,
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
  type ToolListCache,
  unwrapJsonRpcResponse,
} from './mcp/json-rpc.js';
export {
  headerParamsOf,
  type InputRequest,
  type InputRequired,
  inputRequiredOf,
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
  type ReadBudget,
  readBoundedText,
  readErrorExcerpt,
} from './read/bounded-body.js';
export { isEventStream, isJsonMediaType } from './read/media-type.js';
export { readSseBatches, readSseMessages } from './read/sse-reader.js';
