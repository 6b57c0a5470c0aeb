/**
 * The MCP annotations of an OpenAPI tool, derived from its HTTP method (RFC 9110 semantics):
 * GET and HEAD are read-only, DELETE is destructive, PUT and DELETE are idempotent, and every
 * OpenAPI tool reaches an open world. The title is the operation's `summary`. Pure.
 */
import type { ToolAnnotations } from '../binding/kernel/mcp-types.js';
import type { OpenApiMethod } from './types.js';

/** The annotations of an operation with `method` and an optional `summary`. */
export function annotationsForMethod(method: OpenApiMethod, summary: unknown): ToolAnnotations {
  const title = typeof summary === 'string' && summary.trim() !== '' ? summary.trim() : undefined;
  const readOnly = method === 'GET' || method === 'HEAD';
  return {
    ...(title === undefined ? {} : { title }),
    readOnlyHint: readOnly,
    ...(readOnly ? {} : { destructiveHint: method === 'DELETE' }),
    idempotentHint: readOnly || method === 'PUT' || method === 'DELETE',
    openWorldHint: true,
  };
}
