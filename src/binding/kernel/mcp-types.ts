/**
 * The MCP result and tool shapes the package speaks in, as the MCP SDK's own schemas define them
 * (`@modelcontextprotocol/core`, which depends on zod alone): one home, so no public type names
 * an SDK line a host may not have installed.
 */
import type { CallToolResultSchema, ToolSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';

/** An MCP `tools/call` result (`content`, `structuredContent`, `isError`, `_meta`). */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** An MCP tool as `tools/list` describes it. */
export type Tool = z.infer<typeof ToolSchema>;
