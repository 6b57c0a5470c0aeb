/**
 * The wire contract shared by the raw MCP adapters (`mountWait`, `mountDownload`,
 * `mountUpload`): text results with `isError: true` only on failure, a deliverable name checked
 * at mount, and one way to register a callback on an SDK `McpServer`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { AppError, projectToolError } from '../binding/app-error.js';
import { TOOL_NAME_PATTERN } from '../binding/runtime-tool.js';

/** What a raw adapter's callback receives from the SDK besides the arguments. */
export interface RawToolExtra {
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
  /** Request metadata; a `progressToken` asks for progress notifications. */
  readonly _meta?: { readonly progressToken?: string | number };
  /** Sends a notification related to this request. */
  sendNotification(notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }): Promise<void>;
}

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

/** Registers `callback` as a tool on `server` with a zod raw shape validated by the SDK. */
export function registerRawTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  name: string,
  config: { readonly description: string; readonly inputSchema: Shape },
  callback: (args: z.infer<z.ZodObject<Shape>>, extra: RawToolExtra) => Promise<CallToolResult>,
): void {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: { description: string; inputSchema: Shape },
    callback: (args: z.infer<z.ZodObject<Shape>>, extra: RawToolExtra) => Promise<CallToolResult>,
  ) => void;
  register(name, { description: config.description, inputSchema: config.inputSchema }, callback);
}

/**
 * A progress sender for a raw adapter: sends `notifications/progress` only when the request
 * carries a `progressToken`; a failed send is ignored.
 */
export function rawProgress(extra: RawToolExtra) {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (progress: number, total: number | undefined, message: string): void => {
    void extra
      .sendNotification({
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
