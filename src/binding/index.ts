/**
 * `stitchkit-transport/binding`: the stitchkit tool contract. Definitions, the canonical runner,
 * hooks, AppError/ToolResult, AgentToolError, the agent and MCP mounts, and introspection.
 * Held back: `callHookContained`, `isPlainObject`, the zod helpers and `type-guards.ts`
 * (`brandSymbol`, `hasBrand`, `isRecord`), which are internal plumbing; other layers import
 * `type-guards.js` directly. The result budget's cut (`budgetResult`) and the presenters that
 * bake it into a definition are held back too: a budget is an option of the mounts (decision 0044).
 */

export {
  AgentToolError,
  agentToolErrorFromResult,
  isAgentToolError,
} from './contract/agent-tool-error.js';
export type {
  AgentContentPart,
  AgentJsonValue,
  AgentModelOutput,
  ResultBudget,
} from './contract/budgeted-tool.js';
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
} from './contract/caller.js';
export {
  CALLER_INTERNAL_ERROR,
  CALLER_METHOD_NOT_FOUND,
  callerCapabilitiesOf,
  callerServes,
  isCallerListening,
  isToolCallerMethod,
} from './contract/caller.js';
export { estimateTokens } from './contract/estimate-tokens.js';
export type {
  AfterToolCallInfo,
  BeforeToolCallInfo,
  HookErrorInfo,
  ToolCallHooks,
  ToolErrorInfo,
  ToolLifecycle,
} from './contract/hooks.js';
export { presentOutput } from './contract/presentation.js';
export { READ_RESULT_TOOL_NAME } from './contract/read-result-tool.js';
export {
  DEFAULT_RESULT_BUDGET_TOKENS,
  MAX_RESULT_BUDGET_TOKENS,
} from './contract/result-budget.js';
export type { ResultSpillBoundary } from './contract/result-spill.js';
export { MAX_SPILLED_RESULTS, SPILLED_RESULT_TTL_MS } from './contract/result-spill.js';
export type { RunToolOptions } from './contract/run-tool.js';
export { isProgressListened, runTool } from './contract/run-tool.js';
export type {
  AnyRuntimeToolDefinition,
  McpPresentation,
  RuntimeToolCallContext,
  RuntimeToolDefinition,
  RuntimeToolHandlerContext,
  RuntimeToolIdentity,
  ToolHttpMethod,
  ToolProgressReporter,
  ToolSource,
  ToolTransport,
} from './contract/runtime-tool.js';
export {
  assertRuntimeToolDefinition,
  DEFAULT_TOOL_TRANSPORTS,
  defineRuntimeTool,
  resolveToolTransports,
  TOOL_NAME_PATTERN,
  TOOL_TRANSPORTS,
} from './contract/runtime-tool.js';
export type { ToolErrorEnvelope, ToolFailure, ToolResult } from './contract/tool-result.js';
export {
  CANCELLED_CODE,
  CANCELLED_STATUS,
  toolCauseFromResult,
  toolErrorEnvelope,
  toolErrorFromResult,
  toolResultFromAppError,
  toolResultFromCancellation,
  toolResultFromError,
} from './contract/tool-result.js';
export type { JsonSchemaObject, ValidationIssue } from './contract/zod-schema.js';
export type { AppErrorOptions, ToolErrorProjecting } from './kernel/app-error.js';
export {
  AppError,
  isRetryableStatus,
  projectToolError,
  TOOL_ERROR_PROJECTION,
} from './kernel/app-error.js';
export {
  MCP_ERROR_PRESENTATION,
  MCP_INPUT_REQUIRED,
  type McpErrorPresenting,
  type McpInputRequest,
  type McpInputRequiring,
  mcpErrorPresentationOf,
  mcpInputRequestOf,
} from './kernel/mcp-protocols.js';
export type { McpCallPresentation, ToolAnnotations } from './kernel/mcp-types.js';
export type {
  AgentApprovalFunction,
  AgentApprovalPolicy,
  AgentNeedsApproval,
} from './mounts/approval.js';
export type { GatewayRequestState, GatewayRequestStateOptions } from './mounts/gateway-state.js';
export { createGatewayRequestState } from './mounts/gateway-state.js';
export type { GatewayStateProblem } from './mounts/gateway-state-error.js';
export { GatewayStateError } from './mounts/gateway-state-error.js';
export type { MountableTools, ToolCatalogSource } from './mounts/live-tools.js';
export type {
  McpClientAnswer,
  McpClientRequest,
  McpHandlerRequest,
  McpNotification,
  McpToolRegistration,
  McpToolServer,
} from './mounts/mcp-request.js';
export { mcpHandlerRequestOf } from './mounts/mcp-request.js';
export type {
  AgentInputSchema,
  AgentJsonSchemaOptions,
  AgentMountOptions,
  AgentTool,
  AgentToolCallOptions,
  AgentToolSet,
} from './mounts/mount-agent.js';
export { mountAgent } from './mounts/mount-agent.js';
export type { McpMountOptions } from './mounts/mount-mcp.js';
export { mountMcp } from './mounts/mount-mcp.js';
export type { SearchCatalogOptions } from './mounts/search-catalog.js';
export {
  CATALOG_TOOL_NAMES,
  DEFAULT_SEARCH_LIMIT,
  MAX_DESCRIBED_TOOLS,
  MAX_SEARCH_LIMIT,
  searchCatalog,
} from './mounts/search-catalog.js';
export type { CatalogMode, CatalogOptions } from './mounts/search-mode.js';
export {
  AUTO_INLINE_MAX_TOKENS,
  AUTO_INLINE_MAX_TOOLS,
  inlineFootprintTokens,
  searchFootprintTokens,
} from './mounts/search-mode.js';
export type {
  AdvertisedTransport,
  ToolManifestEntry,
  ToolNameEntry,
  TransportSummary,
} from './mounts/tool-surface.js';
export {
  buildToolManifest,
  collectToolSurface,
  listToolNames,
  summarizeTransports,
  toolInputJsonSchema,
  toolOutputJsonSchema,
} from './mounts/tool-surface.js';
