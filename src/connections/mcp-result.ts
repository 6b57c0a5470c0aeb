/**
 * How an MCP `tools/call` result crosses into the tool contract. Pure: no I/O.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../binding/index.js';
import { isRecord } from '../binding/type-guards.js';

const UPSTREAM_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * The payload of a result: `structuredContent` when present; else a lone text part, parsed as JSON
 * when it is JSON; `null` for empty content; else the whole envelope.
 */
export function unwrapMcpResult(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = result.content ?? [];
  if (content.length === 0) return null;
  const [only] = content;
  if (content.length === 1 && only?.type === 'text') {
    try {
      return JSON.parse(only.text) as unknown;
    } catch {
      return only.text;
    }
  }
  return result;
}

/**
 * The AppError for an upstream `isError: true` result. A structured refusal keeps its code, message,
 * `_hint` and boolean `retryable`; anything else is `UPSTREAM_TOOL_ERROR` (502).
 */
export function upstreamToolError(toolName: string, result: CallToolResult): AppError {
  const payload = unwrapMcpResult(result);
  if (isRecord(payload) && typeof payload.error === 'string' && UPSTREAM_CODE.test(payload.error)) {
    const { error, _hint: hint, retryable, message, ...rest } = payload;
    return new AppError(error, {
      message: typeof message === 'string' ? message : error,
      status: 502,
      details: { ...rest, ...(typeof message === 'string' ? { message } : {}) },
      ...(typeof hint === 'string' ? { hint } : {}),
      ...(typeof retryable === 'boolean' ? { retryable } : {}),
    });
  }
  return new AppError('UPSTREAM_TOOL_ERROR', {
    message: `External MCP tool "${toolName}" returned an error`,
    status: 502,
    details: { upstream: payload },
  });
}
