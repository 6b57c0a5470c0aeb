/**
 * The output check of an upstream MCP tool: its `outputSchema` converted once at mount, and each
 * successful result's `structuredContent` checked against it (MCP: clients SHOULD validate).
 */
import type { z } from 'zod';
import { parseWithSchema } from '../binding/contract/zod-schema.js';
import type { CallToolResult, Tool } from '../binding/kernel/mcp-types.js';
import { ConnectionProtocolError, operationScope } from '../wire/index.js';
import { zodFromOutputSchema } from './tool-schema.js';

/** A tool's output check: the converted schema and the JSON Schema advertised beside it. */
export interface OutputCheck {
  readonly schema: z.ZodType;
  readonly jsonSchema: Readonly<Record<string, unknown>>;
}

/** At most this many issues are named in a mismatch's host-facing message. */
const MAX_NAMED_ISSUES = 3;

/**
 * Checks a successful `tools/call` result against the tool's output schema (MCP: clients SHOULD
 * validate; servers MUST return conforming `structuredContent`). `isError` results are not checked.
 */
export async function checkStructuredContent(
  check: OutputCheck,
  result: CallToolResult,
  toolName: string,
  connectionName: string,
): Promise<void> {
  const scope = operationScope(connectionName, 'tools/call');
  if (result.structuredContent === undefined) {
    throw new ConnectionProtocolError({
      ...scope,
      violation: `returned no structuredContent for tool "${toolName}", whose outputSchema requires it`,
    });
  }
  const outcome = await parseWithSchema(check.schema, result.structuredContent);
  if (outcome.success) return;
  const named = outcome.issues
    .slice(0, MAX_NAMED_ISSUES)
    .map(
      (issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`,
    )
    .join('; ');
  throw new ConnectionProtocolError({
    ...scope,
    violation: `returned structuredContent that does not match the outputSchema of tool "${toolName}" (${named})`,
    cause: outcome.error,
  });
}

/**
 * The output check of a tool with an `outputSchema`, converted once here. One that cannot be
 * converted yields the reason instead: the tool mounts without output checking and without
 * advertising the schema, and the host is told (decision 0012).
 */
export function outputCheckOf(tool: Tool): { check?: OutputCheck; unconvertible?: string } {
  if (tool.outputSchema === undefined) return {};
  try {
    const schema = zodFromOutputSchema(tool.outputSchema);
    return schema === undefined ? {} : { check: { schema, jsonSchema: tool.outputSchema } };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      unconvertible: `outputSchema cannot be converted (${reason}); the tool is mounted without output checking`,
    };
  }
}
