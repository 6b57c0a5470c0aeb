/**
 * Transport presenters: what a validated output becomes on MCP and on an agent. They run inside
 * the canonical runner, so a presenter failure is part of the call's attempt.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnyRuntimeToolDefinition, ToolTransport } from './runtime-tool.js';

/** A successful MCP tool result as the runner presents it (never with `isError`). */
export type McpCallPresentation = Pick<CallToolResult, 'content' | 'structuredContent' | '_meta'>;

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

/** True for `{}`-style objects (prototype `Object.prototype` or `null`). */
// Stricter than `isRecord`: class instances, Dates and Maps are not plain data to present.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
