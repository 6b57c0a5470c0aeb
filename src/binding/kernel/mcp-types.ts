/**
 * The MCP result and tool shapes the package speaks in, as the MCP SDK's own schemas define them
 * (`@modelcontextprotocol/core`, which depends on zod alone), and the two shapes built on them
 * (a presented result, a tool's annotations): one home, so no public type names an SDK line a
 * host may not have installed.
 */
import type { CallToolResultSchema, ToolSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';

/** An MCP `tools/call` result (`content`, `structuredContent`, `isError`, `_meta`). */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** An MCP tool as `tools/list` describes it. */
export type Tool = z.infer<typeof ToolSchema>;

/** A successful MCP tool result as the runner presents it (never with `isError`). */
export type McpCallPresentation = Pick<CallToolResult, 'content' | 'structuredContent' | '_meta'>;

/** MCP tool annotations (the SDK's `ToolAnnotations` shape): hints, never guarantees. */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not modify its environment. */
  readOnlyHint?: boolean;
  /** The tool may perform destructive updates. */
  destructiveHint?: boolean;
  /** Repeating a call with the same arguments has no additional effect. */
  idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. */
  openWorldHint?: boolean;
}
