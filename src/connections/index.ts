/**
 * `stitchkit-transport/connections`: external MCP servers and OpenAPI services as typed, bounded,
 * cancellable tools.
 */

/** The `resultBudget` option of `mountConnections` (decision 0044), re-exported for typing it. */
export type { ResultBudget } from '../binding/index.js';
/** The host hooks a connection takes (`observe`, `inspect`), re-exported for typing them. */
export type {
  InspectionObserver,
  TransitionObserver,
  TransitionRecord,
} from '../machines/observe.js';
export {
  type Catalog,
  type CatalogBudget,
  type CatalogEntry,
  type ConnectionBudget,
  describeCatalog,
} from './catalog.js';
export { defineMcpClientConnection } from './define-mcp-connection.js';
export { defineOpenApiConnection } from './define-openapi-connection.js';
export { DIAGNOSTICS_CHANNELS, type OperationDiagnostics } from './diagnostics.js';
export * from './errors.js';
export {
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  MAX_TIMER_MS,
  type OperationLimits,
} from './limits.js';
export { catalogCacheHint, watchConnections } from './live-catalog.js';
export type {
  CatalogChange,
  CatalogChangeReason,
  CatalogDescription,
  CatalogRefresh,
  LiveCatalog,
  LiveCatalogEntry,
  WatchConnectionsOptions,
} from './live-catalog-types.js';
export { mountConnections, warnSkippedTool } from './mount.js';
export type {
  ConnectionTelemetry,
  TelemetryMeterProvider,
  TelemetryTracerProvider,
} from './telemetry.js';
export { ATTR as TELEMETRY_ATTRIBUTES, INSTRUMENTATION_SCOPE } from './telemetry-conventions.js';
export {
  type ConnectionDefinition,
  type ConnectionMountOptions,
  type ConnectionTokenProvider,
  isMountedDespite,
  type McpClientConnection,
  type McpClientConnectionConfig,
  type McpToolFilter,
  type OpenApiConnection,
  type OpenApiConnectionConfig,
  type RetryPolicy,
  type SkippedTool,
  type SkipReason,
} from './types.js';
