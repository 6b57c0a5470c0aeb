/**
 * Transport presenters: what a validated output becomes on MCP and on an agent. They run inside
 * the canonical runner, so a presenter failure is part of the call's attempt.
 */
import type { CallToolResult, McpCallPresentation } from '../kernel/mcp-types.js';
import { isPlainObject } from '../kernel/type-guards.js';
import type { AnyRuntimeToolDefinition, ToolTransport } from './runtime-tool.js';

/**
 * Presents `output` for `transport`. MCP: `present.mcp`'s content, `_meta` and plain-object
 * `structuredContent` (anything else, `isError` included, is dropped), else the JSON text plus
 * `structuredContent` for a plain object.
 * AGENT: `present.agent`'s value, else the output. No transport: the output.
 */
export function presentOutput(
  definition: AnyRuntimeToolDefinition,
  transport: ToolTransport | undefined,
  output: unknown,
): unknown {
  if (transport === 'AGENT') {
    return definition.present?.agent ? definition.present.agent(output) : output;
  }
  if (transport === 'MCP') {
    return definition.present?.mcp
      ? customMcpPresentation(definition, definition.present.mcp(output))
      : defaultMcpPresentation(output);
  }
  return output;
}

function customMcpPresentation(
  definition: AnyRuntimeToolDefinition,
  presentation: unknown,
): McpCallPresentation {
  if (!isPlainObject(presentation) || !Array.isArray(presentation.content)) {
    throw new TypeError(`MCP presenter of tool "${definition.name}" returned no content array`);
  }
  const presented: McpCallPresentation = {
    content: presentation.content as CallToolResult['content'],
  };
  if (isPlainObject(presentation.structuredContent)) {
    presented.structuredContent = presentation.structuredContent;
  }
  if (isPlainObject(presentation._meta)) presented._meta = presentation._meta;
  return presented;
}

function defaultMcpPresentation(output: unknown): McpCallPresentation {
  // JSON.stringify throws on BigInt and cycles; here that is a failure of this attempt.
  const text = JSON.stringify(output ?? null);
  const presented: McpCallPresentation = { content: [{ type: 'text', text }] };
  if (isPlainObject(output)) presented.structuredContent = output;
  return presented;
}
