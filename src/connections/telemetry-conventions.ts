/**
 * The OpenTelemetry names the package writes, in one place (decision 0032). The GenAI conventions
 * that define the MCP client span and metric (`open-telemetry/semantic-conventions-genai`,
 * `docs/gen-ai/mcp.md`, status Development) publish no package to import, so the names are ours
 * to keep, checked against that text. Names of the package's own are under `stitchkit.`.
 */

/** The instrumentation scope: the tracer's and the meter's name. */
export const INSTRUMENTATION_SCOPE = 'stitchkit-transport';

/** Attribute names of the spans and the metric. */
export const ATTR = Object.freeze({
  mcpMethodName: 'mcp.method.name',
  mcpProtocolVersion: 'mcp.protocol.version',
  genAiToolName: 'gen_ai.tool.name',
  genAiOperationName: 'gen_ai.operation.name',
  genAiToolCallArguments: 'gen_ai.tool.call.arguments',
  genAiToolCallResult: 'gen_ai.tool.call.result',
  jsonRpcRequestId: 'jsonrpc.request.id',
  rpcResponseStatusCode: 'rpc.response.status_code',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
  networkProtocolVersion: 'network.protocol.version',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  httpRequestMethod: 'http.request.method',
  httpResponseStatusCode: 'http.response.status_code',
  urlTemplate: 'url.template',
  /** The connection the operation belongs to, as the host named it. */
  connection: 'stitchkit.connection',
  /** The MCP wire the operation ended on: `streamable-http` or `sse`. */
  mcpWire: 'stitchkit.mcp.wire',
  /** An OpenAPI operation's `operationId`, when the document gives one. */
  openApiOperationId: 'stitchkit.openapi.operation_id',
  /** On a transition event: the machine, the state it left, and the ms since its run started. */
  machine: 'stitchkit.machine',
  stateFrom: 'stitchkit.state.from',
  elapsedMs: 'stitchkit.elapsed_ms',
  /** On a transition event of a call that became an MCP task: its id and the status last seen. */
  taskId: 'stitchkit.mcp.task.id',
  taskStatus: 'stitchkit.mcp.task.status',
} as const);

/** `gen_ai.operation.name` of a tool call. */
export const EXECUTE_TOOL = 'execute_tool';

/** `error.type` of a `tools/call` answered with `isError: true`. */
export const TOOL_ERROR = 'tool_error';

/** `error.type` when no class of ours applies (the conventions' fallback). */
export const OTHER_ERROR = '_OTHER';

/** The MCP client operation histogram: name, unit and the conventions' bucket boundaries, in s. */
export const MCP_CLIENT_OPERATION_DURATION = Object.freeze({
  name: 'mcp.client.operation.duration',
  unit: 's',
  description:
    'The duration of the MCP request as observed on the sender from the time it was sent until the response is received.',
  buckets: Object.freeze([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]),
} as const);
