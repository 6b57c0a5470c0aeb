/**
 * The wire contract shared by the raw MCP adapters (`mountWait`, `mountDownload`,
 * `mountUpload`): text results with `isError: true` only on failure, a deliverable name checked
 * at mount, and one way to register a callback on an SDK `McpServer`.
 */

import { z } from 'zod';
import { TOOL_NAME_PATTERN } from '../binding/contract/runtime-tool.js';
import { AppError, projectToolError } from '../binding/kernel/app-error.js';
import type { CallToolResult } from '../binding/kernel/mcp-types.js';
import {
  type McpHandlerRequest,
  type McpToolServer,
  mcpHandlerRequestOf,
} from '../binding/mounts/mcp-request.js';

/** `{ content: [text] }`, plus `isError: true` only for a failure (success has no `isError` key). */
export function textResult(text: string, isError: boolean): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  return isError ? { content, isError: true } : { content };
}

/**
 * `<prefix> [CODE]: message` for an error that projects itself or is an `AppError`; anything
 * else is scrubbed to `<prefix> [INTERNAL_SERVER_ERROR]: Internal server error`.
 */
export function failureText(prefix: string, error: unknown): string {
  const known = projectToolError(error) ?? (AppError.isInstance(error) ? error : undefined);
  if (known === undefined) return `${prefix} [INTERNAL_SERVER_ERROR]: Internal server error`;
  return `${prefix} [${known.code}]: ${known.message}`;
}

/** Throws a `TypeError` naming the adapter when `name` is not a deliverable tool name. */
export function assertRawToolName(name: string, adapter: string): void {
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new TypeError(`${adapter}: tool name ${JSON.stringify(name)} is not deliverable`);
  }
}

/**
 * Registers `callback` as a tool on `server` (an `McpServer` of either SDK line) with a zod raw
 * shape the SDK validates; the callback reads the call through {@link McpHandlerRequest}.
 */
export function registerRawTool<Shape extends z.ZodRawShape>(
  server: McpToolServer,
  name: string,
  config: { readonly description: string; readonly inputSchema: Shape },
  callback: (
    args: z.infer<z.ZodObject<Shape>>,
    request: McpHandlerRequest,
  ) => Promise<CallToolResult>,
): void {
  const handler = (args: z.infer<z.ZodObject<Shape>>, extra: unknown) =>
    callback(args, mcpHandlerRequestOf(server, extra));
  server.registerTool(
    name,
    { description: config.description, inputSchema: z.object(config.inputSchema) },
    handler,
  );
}

/**
 * A progress sender for a raw adapter: sends `notifications/progress` only when the request
 * carries a `progressToken`; a failed send is ignored.
 */
export function rawProgress(request: McpHandlerRequest) {
  const { progressToken } = request;
  if (progressToken === undefined) return undefined;
  return (progress: number, total: number | undefined, message: string): void => {
    void request
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          message,
          ...(total === undefined ? {} : { total }),
        },
      })
      .catch(() => {});
  };
}
