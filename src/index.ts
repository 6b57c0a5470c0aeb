/**
 * `stitchkit-transport`: what a user starts with: connections defined and mounted, tools run and
 * mounted, the wait, download and upload operations, and the errors a caller catches.
 * Held back, as only integrations need them (on the subpaths): constants, projections, adapters.
 */

export type {
  AgentMountOptions,
  McpMountOptions,
  RunToolOptions,
  RuntimeToolDefinition,
  RuntimeToolHandlerContext,
  ToolResult,
} from './binding/index.js';
export {
  AgentToolError,
  AppError,
  defineRuntimeTool,
  mountAgent,
  mountMcp,
  runTool,
} from './binding/index.js';
export type {
  AuthChallenge,
  Catalog,
  CatalogChange,
  CatalogDescription,
  ConnectionDefinition,
  ConnectionMountOptions,
  ConnectionTokenProvider,
  LiveCatalog,
  McpClientConnection,
  McpClientConnectionConfig,
  NetworkFailure,
  OpenApiConnection,
  OpenApiConnectionConfig,
  SkippedTool,
  TransitionObserver,
  TransitionRecord,
  WatchConnectionsOptions,
} from './connections/index.js';
export {
  ConnectionAuthorizationRequiredError,
  ConnectionBudgetExceededError,
  ConnectionCredentialError,
  ConnectionInputRequiredError,
  ConnectionNetworkError,
  ConnectionOperationError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTaskError,
  ConnectionTimeoutError,
  ConnectionToolNameCollisionError,
  ConnectionUrlError,
  defineMcpClientConnection,
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
  watchConnections,
} from './connections/index.js';
export type {
  DownloadToolConfig,
  FileBoundary,
  FileBoundaryOptions,
  UploadToolConfig,
  WaitToolConfig,
} from './operations/index.js';
export {
  createFileBoundary,
  DownloadError,
  defineDownloadTool,
  defineUploadTool,
  defineWaitTool,
  FileBoundaryError,
  WaitTimeoutError,
} from './operations/index.js';
