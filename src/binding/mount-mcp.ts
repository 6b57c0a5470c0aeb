/**
 * Registers runtime tools on an SDK `McpServer`. Every call runs through the canonical runner;
 * the MCP wire shape is JSON text (+ structuredContent) on success, the safe envelope on failure.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  McpError,
  ResultSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolCallerAnswer, ToolCallerError, ToolCallerHandler } from './caller.js';
import type { ToolCallHooks, ToolLifecycle } from './hooks.js';
import { type McpCallPresentation, mcpErrorPresentationOf } from './presentation.js';
import { runTool } from './run-tool.js';
import type { AnyRuntimeToolDefinition, ToolProgressReporter } from './runtime-tool.js';
import {
  type ToolFailure,
  type ToolResult,
  toolCauseFromResult,
  toolErrorEnvelope,
  toolResultFromError,
} from './tool-result.js';
import { collectToolSurface, sharedInputJsonSchema, toolOutputJsonSchema } from './tool-surface.js';
import type { JsonSchemaObject } from './zod-schema.js';

/** Options of {@link mountMcp}. */
export interface McpMountOptions {
  /** Observers of every call. */
  hooks?: ToolCallHooks;
  /** The gate around every handler. */
  lifecycle?: ToolLifecycle;
  /** Host context spread into every call context. */
  context?: Readonly<Record<string, unknown>>;
}

/**
 * Registers each definition exposed on `MCP` on `server`. tools/list shows the input's JSON
 * Schema, and the output's for a definition that declares `outputJsonSchema` (its successful
 * results must then carry `structuredContent`; one without is answered `INTERNAL_SERVER_ERROR`,
 * since the SDK server and its clients would refuse it); the handler's signal follows MCP
 * cancellation, `ctx.reportProgress` sends `notifications/progress` only when the request carries
 * a `progressToken`, and `ctx.caller` is the client that sent the call: what it declared
 * (sampling, elicitation, roots) is asked on the call's own stream, and log messages go out as
 * notifications of the call (when `server` declares `logging`). Throws at mount on a
 * bad definition or a duplicate name (naming both sources); the SDK itself refuses a name already
 * registered.
 */
export function mountMcp(
  server: McpServer,
  runtimeTools: readonly AnyRuntimeToolDefinition[],
  options: McpMountOptions = {},
): void {
  const { hooks, lifecycle, context } = options;
  for (const definition of collectToolSurface(runtimeTools, 'MCP')) {
    const outputJsonSchema = toolOutputJsonSchema(definition);
    const config = {
      description: definition.description,
      inputSchema: advertisedPassThroughSchema(sharedInputJsonSchema(definition)),
      // The SDK server then demands structuredContent (any object passes the pass-through).
      ...(outputJsonSchema === undefined
        ? {}
        : { outputSchema: advertisedPassThroughSchema(outputJsonSchema) }),
      ...(definition.annotations?.title === undefined
        ? {}
        : { title: definition.annotations.title }),
      ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
    };
    server.registerTool(definition.name, config, async (args, extra) => {
      const reportProgress = mcpProgressSender(extra);
      const caller = mcpCallerOf(server, extra);
      const result = await runTool(definition, args, {
        source: 'mcp',
        signal: extra.signal,
        toolCallId: String(extra.requestId),
        context,
        hooks,
        lifecycle,
        transport: 'MCP',
        caller,
        ...(reportProgress === undefined ? {} : { reportProgress }),
      });
      return toCallToolResult(result, outputJsonSchema !== undefined);
    });
  }
}

/**
 * Sends `notifications/progress` for the request, tied to it by its `progressToken`; `undefined`
 * when the request carries none (then nothing is ever sent and `ctx.reportProgress` is a no-op).
 */
function mcpProgressSender(
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
): ToolProgressReporter | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (progress, total, message) =>
    extra.sendNotification({
      method: 'notifications/progress',
      params: {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      },
    });
}

/** Longest delay `setTimeout` honours: the SDK's own 60 s default must not cut a human's answer. */
const UNBOUNDED_BY_SDK_MS = 2 ** 31 - 1;

/**
 * The MCP client behind the call as the call's caller: what it declared in its `initialize`
 * (sampling, elicitation, roots), requests sent on the call's own stream (related to its
 * request) and bounded by the call's signal rather than the SDK's timeout, log messages likewise.
 */
function mcpCallerOf(
  server: McpServer,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
): ToolCallerHandler {
  return {
    // As the client declared them; the runner keeps only sampling, elicitation and roots.
    capabilities: server.server.getClientCapabilities() ?? {},
    async request(request, { signal }): Promise<ToolCallerAnswer> {
      try {
        const result = await extra.sendRequest(
          { method: request.method, params: { ...request.params } } as ServerRequest,
          ResultSchema.passthrough(),
          { signal, timeout: UNBOUNDED_BY_SDK_MS },
        );
        return { result };
      } catch (error) {
        if (signal.aborted || !(error instanceof McpError)) throw error;
        return { error: callerErrorOf(error) };
      }
    },
    log: (message) =>
      extra.sendNotification({
        method: 'notifications/message',
        params: { ...message } as Extract<
          ServerNotification,
          { method: 'notifications/message' }
        >['params'],
      }),
  };
}

/** The caller's JSON-RPC error as it wrote it: the SDK prefixes `MCP error <code>: `. */
function callerErrorOf(error: McpError): ToolCallerError {
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return { code: error.code, message, ...(error.data === undefined ? {} : { data: error.data }) };
}

// The SDK validates before our callback (ahead of beforeToolCall, with its own error text), so we
// register a pass-through object and advertise the real schema via zod's `toJSONSchema` override.
function advertisedPassThroughSchema(jsonSchema: Readonly<JsonSchemaObject>): z.ZodObject {
  const schema = z.looseObject({});
  schema._zod.toJSONSchema = () => structuredClone(jsonSchema);
  return schema;
}

/**
 * Maps a runner result onto the MCP tool-call result. A tool that advertises an output schema and
 * presents no structured content is a server fault, answered with the safe envelope.
 */
function toCallToolResult(result: ToolResult, needsStructured: boolean): CallToolResult {
  if (result.ok) {
    const presented = result.data as McpCallPresentation;
    if (!needsStructured || presented.structuredContent !== undefined) return presented;
    return errorResult(
      toolResultFromError(new Error('tool with an outputSchema presented no structuredContent')),
    );
  }
  // An upstream tool's own error answer is relayed as the upstream wrote it.
  const relayed = mcpErrorPresentationOf(toolCauseFromResult(result));
  if (relayed !== undefined) return { ...relayed, isError: true };
  return errorResult(result);
}

function errorResult(failure: ToolFailure): CallToolResult {
  const text = JSON.stringify(toolErrorEnvelope(failure));
  return { content: [{ type: 'text', text }], isError: true };
}
