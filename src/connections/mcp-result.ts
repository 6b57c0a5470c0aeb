/**
 * How an MCP `tools/call` result crosses into the tool contract. Pure: no I/O.
 */

import {
  AppError,
  type AppErrorOptions,
  MCP_ERROR_PRESENTATION,
  type McpCallPresentation,
  type McpErrorPresenting,
} from '../binding/index.js';
import type { CallToolResult } from '../binding/kernel/mcp-types.js';
import { isRecord } from '../binding/kernel/type-guards.js';

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
    return new UpstreamToolError(result, error, {
      message: typeof message === 'string' ? message : error,
      status: 502,
      details: { ...rest, ...(typeof message === 'string' ? { message } : {}) },
      ...(typeof hint === 'string' ? { hint } : {}),
      // An upstream tool error is not a transport failure: retryable only when it says so.
      retryable: typeof retryable === 'boolean' ? retryable : false,
    });
  }
  return new UpstreamToolError(result, 'UPSTREAM_TOOL_ERROR', {
    message: `External MCP tool "${toolName}" returned an error`,
    status: 502,
    retryable: false,
    details: { upstream: payload },
  });
}

/**
 * An upstream tool's `isError` answer: an {@link AppError} for the runner and the model, which
 * also carries the upstream's own result so that `mountMcp` relays it as the upstream wrote it.
 */
class UpstreamToolError extends AppError implements McpErrorPresenting {
  readonly #result: CallToolResult;

  constructor(result: CallToolResult, code: string, options: AppErrorOptions) {
    super(code, options);
    this.#result = result;
  }

  /** The upstream's content, structured content and `_meta`, unchanged. */
  [MCP_ERROR_PRESENTATION](): McpCallPresentation {
    const { content, structuredContent, _meta } = this.#result;
    return {
      content,
      ...(structuredContent === undefined ? {} : { structuredContent }),
      ...(_meta === undefined ? {} : { _meta }),
    };
  }
}
