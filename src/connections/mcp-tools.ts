/**
 * MCP discovery and the tools it yields: a dedicated discovery client (no principal), then one
 * `RuntimeToolDefinition` per allowed tool, each call a fresh client with the caller's credential.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type AnyRuntimeToolDefinition,
  defineRuntimeTool,
  isProgressListened,
  TOOL_NAME_PATTERN,
  type ToolAnnotations,
  toolInputJsonSchema,
} from '../binding/index.js';
import type { McpProgressEvent, McpToolList } from '../machines/mcp-operation.types.js';
import type { TransitionObserver } from '../machines/observe.js';
import { type ResolvedMcpConnection, resolveMcpConnection } from './define-mcp-connection.js';
import { runMcpOperation } from './mcp-operation-run.js';
import { unwrapMcpResult, upstreamToolError } from './mcp-result.js';
import { recordMountedToolCost } from './tool-cost.js';
import { zodObjectFromJsonSchema } from './tool-schema.js';
import type { McpClientConnection, SkippedTool } from './types.js';

function isAllowed(resolved: ResolvedMcpConnection, name: string): boolean {
  return (resolved.allow === undefined || resolved.allow.has(name)) && !resolved.block.has(name);
}

/** The server's annotations, with the tool's `title` (which MCP ranks above `annotations.title`). */
function annotationsOf(tool: Tool): { annotations?: ToolAnnotations } {
  const title = tool.title ?? tool.annotations?.title;
  if (tool.annotations === undefined && title === undefined) return {};
  return { annotations: { ...tool.annotations, ...(title === undefined ? {} : { title }) } };
}

function buildTool(
  connection: McpClientConnection,
  resolved: ResolvedMcpConnection,
  tool: Tool,
  observe: TransitionObserver | undefined,
): AnyRuntimeToolDefinition {
  const name = tool.name;
  const definition = defineRuntimeTool({
    name,
    description: tool.description ?? `External MCP tool "${name}"`,
    identity: { serviceName: resolved.name, action: name, method: 'POST' },
    input: zodObjectFromJsonSchema(tool.inputSchema),
    transports: resolved.transports,
    ...annotationsOf(tool),
    handler: async (context) => {
      const outcome = await runMcpOperation(connection, resolved, {
        request: {
          method: 'tools/call',
          params: { name, arguments: { ...(context.input as Record<string, unknown>) } },
        },
        context,
        signal: context.signal,
        ...(observe === undefined ? {} : { observe }),
        // Ask the upstream for progress only when someone listens to this call's.
        ...(isProgressListened(context)
          ? {
              onProgress: (report: McpProgressEvent) =>
                void context.reportProgress(report.progress, report.total, report.message),
            }
          : {}),
      });
      const result = outcome.result as CallToolResult;
      if (result.isError === true) throw upstreamToolError(name, result);
      return context.source === 'cli' ? unwrapMcpResult(result) : result;
    },
    present: {
      // Relay the server's own content blocks to MCP clients instead of re-encoding them as JSON.
      mcp: (output) => {
        const result = output as CallToolResult;
        return Array.isArray(result?.content)
          ? { content: result.content }
          : { content: [{ type: 'text', text: JSON.stringify(output) }] };
      },
    },
  });
  // Fails here, not at mountAgent/mountMcp, when the converted schema has no JSON form.
  toolInputJsonSchema(definition);
  return definition;
}

/**
 * Discovers one MCP connection's tools with a dedicated client (token provider called with no
 * context) and builds their definitions. A tool that cannot be built is reported, not fatal.
 */
export async function discoverMcpTools(
  connection: McpClientConnection,
  report: (skipped: SkippedTool) => void,
  observe?: TransitionObserver,
): Promise<AnyRuntimeToolDefinition[]> {
  const resolved = resolveMcpConnection(connection);
  const outcome = await runMcpOperation(connection, resolved, {
    request: { method: 'tools/list' },
    ...(observe === undefined ? {} : { observe }),
  });
  const list = outcome.result as McpToolList;
  for (const rejected of list.rejected) {
    report({
      connection: resolved.name,
      tool: rejected.name ?? '',
      reason: 'invalid-tool',
      message: rejected.message,
    });
  }
  const tools: AnyRuntimeToolDefinition[] = [];
  for (const tool of list.tools) {
    if (!isAllowed(resolved, tool.name)) continue;
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      report({
        connection: resolved.name,
        tool: tool.name,
        reason: 'invalid-name',
        message: 'tool names must match [A-Za-z0-9_-]{1,64} to be callable by models',
      });
      continue;
    }
    try {
      const definition = buildTool(connection, resolved, tool, observe);
      recordMountedToolCost(definition, resolved.name, tool.inputSchema);
      tools.push(definition);
    } catch (error) {
      report({
        connection: resolved.name,
        tool: tool.name,
        reason: 'unconvertible-schema',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return tools;
}
