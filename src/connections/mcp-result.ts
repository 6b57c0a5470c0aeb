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
import { JSON_RPC_ERROR } from '../binding/kernel/rpc-codes.js';
import { isRecord } from '../binding/kernel/type-guards.js';
import { ConnectionProtocolError, MCP_RPC_ERROR } from '../wire/index.js';

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

/** A JSON-RPC `-32020` refusal: the request's headers and its body disagree (MCP 2026-07-28). */
export function isHeaderMismatch(error: unknown): boolean {
  return (
    ConnectionProtocolError.isInstance(error) && error.rpcCode === MCP_RPC_ERROR.headerMismatch
  );
}

/**
 * Whether a call's failure says the server no longer has tool `name`: a JSON-RPC `-32602` whose
 * message names the tool (the MCP SDK v2 server: "Tool … not found"), or an `isError` result whose
 * text does (the SDK v1 server wraps the same refusal as a tool error). Either way the listing the
 * tool came from is stale.
 */
export function namesUnknownTool(failure: unknown, name: string): boolean {
  const phrase = `Tool ${name} not found`;
  if (ConnectionProtocolError.isInstance(failure)) {
    return (
      failure.rpcCode === JSON_RPC_ERROR.invalidParams &&
      (failure.rpcMessage ?? '').includes(phrase)
    );
  }
  const result = failure as CallToolResult | undefined;
  if (result?.isError !== true || !Array.isArray(result.content)) return false;
  return result.content.some((part) => part.type === 'text' && part.text.includes(phrase));
}
