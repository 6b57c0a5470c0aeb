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
  // Keys in one order and no spread before a key: one hidden class for a whole document's tools.
  const annotations: ToolAnnotations = {};
  if (title !== undefined) annotations.title = title;
  annotations.readOnlyHint = readOnly;
  if (!readOnly) annotations.destructiveHint = method === 'DELETE';
  annotations.idempotentHint = readOnly || method === 'PUT' || method === 'DELETE';
  annotations.openWorldHint = true;
  return annotations;
}
