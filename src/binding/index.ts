/**
 * `stitchkit-transport/binding`: the stitchkit tool contract. Definitions, the canonical runner,
 * hooks, AppError/ToolResult, AgentToolError, the agent and MCP mounts, and introspection.
 * Held back: `callHookContained`, `isPlainObject`, the zod helpers and `type-guards.ts`
 * (`brandSymbol`, `hasBrand`, `isRecord`), which are internal plumbing; other layers import
 * `type-guards.js` directly.
 */

export { AgentToolError, agentToolErrorFromResult, isAgentToolError } from './agent-tool-error.js';
export type { AppErrorOptions, ToolErrorProjecting } from './app-error.js';
export {
  AppError,
  isRetryableStatus,
  projectToolError,
  TOOL_ERROR_PROJECTION,
} from './app-error.js';
export type {
  AgentApprovalFunction,
  AgentApprovalPolicy,
  AgentNeedsApproval,
} from './approval.js';
export type {
  ToolCaller,
  ToolCallerAnswer,
  ToolCallerAnswered,
  ToolCallerCapabilities,
  ToolCallerError,
  ToolCallerHandler,
  ToolCallerMethod,
  ToolCallerRequest,
  ToolLogMessage,
} from './caller.js';
export {
  CALLER_INTERNAL_ERROR,
  CALLER_METHOD_NOT_FOUND,
  callerCapabilitiesOf,
  callerServes,
  isCallerListening,
  isToolCallerMethod,
} from './caller.js';
export type { GatewayRequestState, GatewayRequestStateOptions } from './gateway-state.js';
export { createGatewayRequestState } from './gateway-state.js';
export type { GatewayStateProblem } from './gateway-state-error.js';
export { GatewayStateError } from './gateway-state-error.js';
export type {
  AfterToolCallInfo,
  BeforeToolCallInfo,
  HookErrorInfo,
  ToolCallHooks,
  ToolErrorInfo,
  ToolLifecycle,
} from './hooks.js';
export type {
  McpClientAnswer,
  McpClientRequest,
  McpHandlerRequest,
  McpNotification,
  McpToolRegistration,
  McpToolServer,
} from './mcp-request.js';
export { mcpHandlerRequestOf } from './mcp-request.js';
export type {
  AgentInputSchema,
  AgentJsonSchemaOptions,
  AgentMountOptions,
  AgentTool,
  AgentToolCallOptions,
  AgentToolSet,
} from './mount-agent.js';
export { mountAgent } from './mount-agent.js';
export type { McpMountOptions } from './mount-mcp.js';
export { mountMcp } from './mount-mcp.js';
export type { McpCallPresentation } from './presentation.js';
export {
  MCP_ERROR_PRESENTATION,
  MCP_INPUT_REQUIRED,
  type McpErrorPresenting,
  type McpInputRequest,
  type McpInputRequiring,
  mcpErrorPresentationOf,
  mcpInputRequestOf,
  presentOutput,
} from './presentation.js';
export type { RunToolOptions } from './run-tool.js';
export { isProgressListened, runTool } from './run-tool.js';
export type {
  AnyRuntimeToolDefinition,
  McpPresentation,
  RuntimeToolCallContext,
  RuntimeToolDefinition,
  RuntimeToolHandlerContext,
  RuntimeToolIdentity,
  ToolAnnotations,
  ToolHttpMethod,
  ToolProgressReporter,
  ToolSource,
  ToolTransport,
} from './runtime-tool.js';
export {
  assertRuntimeToolDefinition,
  DEFAULT_TOOL_TRANSPORTS,
  defineRuntimeTool,
  resolveToolTransports,
  TOOL_NAME_PATTERN,
  TOOL_TRANSPORTS,
} from './runtime-tool.js';
export type { ToolErrorEnvelope, ToolFailure, ToolResult } from './tool-result.js';
export {
  CANCELLED_CODE,
  CANCELLED_STATUS,
  toolCauseFromResult,
  toolErrorEnvelope,
  toolErrorFromResult,
  toolResultFromAppError,
  toolResultFromCancellation,
  toolResultFromError,
} from './tool-result.js';
export type {
  AdvertisedTransport,
  ToolManifestEntry,
  ToolNameEntry,
  TransportSummary,
} from './tool-surface.js';
export {
  buildToolManifest,
  collectToolSurface,
  listToolNames,
  summarizeTransports,
  toolInputJsonSchema,
  toolOutputJsonSchema,
} from './tool-surface.js';
export type { JsonSchemaObject, ValidationIssue } from './zod-schema.js';
