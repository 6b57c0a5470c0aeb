/**
 * One MCP request as a tool handler on an SDK `McpServer` sees it, read the same way on either SDK
 * line. The v1 SDK (`@modelcontextprotocol/sdk`) hands a handler `extra` (`signal`, `requestId`,
 * `_meta`, `sendNotification`, `sendRequest`); the v2 SDK (`@modelcontextprotocol/server`) a
 * context (`ctx.mcpReq.{id, signal, _meta, envelope, notify, send, log, inputResponses,
 * requestState}`). Structural: neither SDK is imported, so a host installs the line it serves.
 */
import { z } from 'zod';
import type { ToolCallerError, ToolLogMessage } from '../contract/caller.js';
import type { ToolAnnotations } from '../kernel/mcp-types.js';
import { isRecord } from '../kernel/type-guards.js';

/** What the mounts register on an `McpServer`: the same config on either SDK line. */
export interface McpToolRegistration {
  /** The tool's description. */
  readonly description?: string;
  /** The tool's display title. */
  readonly title?: string;
  /** A zod object: the SDK checks the arguments with it and advertises its JSON Schema. */
  readonly inputSchema: z.ZodType;
  /** The output's schema, when the tool declares one. */
  readonly outputSchema?: z.ZodType;
  /** The tool's MCP annotations. */
  readonly annotations?: ToolAnnotations;
}

/**
 * An MCP SDK `McpServer`, v1 (`@modelcontextprotocol/sdk/server/mcp.js`) or v2
 * (`@modelcontextprotocol/server`): what the mounts use of it.
 */
export interface McpToolServer {
  /** Registers one tool; the SDK checks the arguments with `config.inputSchema` first. */
  registerTool(
    name: string,
    config: McpToolRegistration,
    callback: (args: never, extra: never) => unknown,
  ): unknown;
  /**
   * The low-level server: what a 2025-11-25 client declared in its `initialize`, and its close
   * hook (a mount that follows a live catalog stops following it there).
   */
  readonly server: { getClientCapabilities(): unknown; onclose?: (() => void) | undefined };
}

/** A notification sent on the request's own stream. */
export interface McpNotification {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A request to the client, sent on the request's own stream. */
export interface McpClientRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The client's answer to a {@link McpClientRequest}: its result or its JSON-RPC error. */
export type McpClientAnswer =
  | { readonly result: Readonly<Record<string, unknown>> }
  | { readonly error: ToolCallerError };

/** One tool call as the handler sees it, whichever SDK line delivered it. */
export interface McpHandlerRequest {
  /** The JSON-RPC id, as a string. */
  readonly id: string;
  /** Aborted when the client cancels (a 2025 notice, or a closed 2026 request). */
  readonly signal: AbortSignal;
  /** The request's `_meta.progressToken`, when it asks for progress. */
  readonly progressToken: string | number | undefined;
  /** The request's `_meta` as the client sent it (its trace context, SEP-414), when it has one. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** The request came on MCP 2026-07-28: its client declared its capabilities in `_meta`. */
  readonly stateless: boolean;
  /** What the client declared: in this request's `_meta` (2026), else in its `initialize`. */
  readonly clientCapabilities: unknown;
  /** A retry's answers to an `input_required` round (2026), as the client sent them. */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  /** A retry's `requestState` (2026), exactly as the client sent it. */
  readonly requestState: string | undefined;
  /** The authenticated client (`authInfo.clientId`), when the host authenticates requests. */
  readonly owner: string | undefined;
  /** Sends a notification related to this request. */
  notify(notification: McpNotification): Promise<void>;
  /** Logs to the client; the SDK applies the level the client asked for. */
  log(message: ToolLogMessage): Promise<void>;
  /**
   * Whether the client reads logs: a 2025 client always may (`logging/setLevel` filters them); a
   * 2026 request only when its `_meta` asks for a level.
   */
  readonly takesLogs: boolean;
  /**
   * Asks the client, on this request's stream; `undefined` on MCP 2026-07-28, which has no
   * server-to-client requests (the server answers `input_required` instead).
   */
  readonly send:
    | ((
        request: McpClientRequest,
        options: { readonly signal: AbortSignal; readonly timeout: number },
      ) => Promise<McpClientAnswer>)
    | undefined;
}

/** The `_meta` key of a 2026 request's client capabilities. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** The `_meta` key of a 2026 request's log level. */
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
/** The `_meta` key of a 2026 request's protocol version. */
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** Any result: what the v1 SDK's `sendRequest` checks a client's answer against. */
const ANY_RESULT = z.looseObject({});

type Loose = Readonly<Record<string, unknown>>;
type AsyncFn = (...args: readonly unknown[]) => Promise<unknown>;

/** The progress token of a `_meta`, when it carries one. */
function progressTokenOf(meta: unknown): string | number | undefined {
  const token = isRecord(meta) ? meta.progressToken : undefined;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * The client's JSON-RPC error, as it wrote it, from what either SDK throws for one (`code` and
 * `message`, the v1 SDK prefixing `MCP error <code>: `); `undefined` for any other failure.
 */
export function clientErrorOf(error: unknown): ToolCallerError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  const prefix = `MCP error ${code}: `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return data === undefined ? { code, message } : { code, message, data };
}

/**
 * Who a request comes from, when the host authenticates it: `authInfo.clientId` (v2 SDK
 * `ctx.http.authInfo`, v1 SDK `extra.authInfo`).
 */
function requestOwnerOf(extra: unknown): string | undefined {
  if (!isRecord(extra)) return undefined;
  const http = isRecord(extra.http) ? extra.http : extra;
  const authInfo = isRecord(http.authInfo) ? http.authInfo : undefined;
  return typeof authInfo?.clientId === 'string' ? authInfo.clientId : undefined;
}

/** Sends `request` through an SDK's send function and reads the answer as the client wrote it. */
async function answerOf(sending: Promise<unknown>, signal: AbortSignal): Promise<McpClientAnswer> {
  try {
    const result = await sending;
    return { result: isRecord(result) ? { ...result } : {} };
  } catch (error) {
    const refused = signal.aborted ? undefined : clientErrorOf(error);
    if (refused === undefined) throw error;
    return { error: refused };
  }
}

/** The request a v2 SDK context describes (`ctx.mcpReq`). */
function fromV2Context(
  server: McpToolServer,
  mcpReq: Loose,
  owner: string | undefined,
): McpHandlerRequest {
  const envelope = isRecord(mcpReq.envelope) ? mcpReq.envelope : undefined;
  const stateless = envelope?.[PROTOCOL_VERSION] !== undefined;
  const state = mcpReq.requestState;
  // Without a verify hook the accessor returns the raw wire string.
  const requestState = typeof state === 'function' ? (state as () => unknown)() : undefined;
  const notify = mcpReq.notify as AsyncFn;
  const log = mcpReq.log as AsyncFn | undefined;
  const send = mcpReq.send as AsyncFn;
  return {
    id: String(mcpReq.id),
    signal: mcpReq.signal as AbortSignal,
    progressToken: progressTokenOf(mcpReq._meta),
    meta: isRecord(mcpReq._meta) ? mcpReq._meta : undefined,
    stateless,
    clientCapabilities: stateless
      ? envelope?.[CLIENT_CAPABILITIES]
      : server.server.getClientCapabilities(),
    inputResponses: isRecord(mcpReq.inputResponses) ? mcpReq.inputResponses : undefined,
    // A value some other verify hook decoded is no state the gateway minted: kept so it fails.
    requestState:
      requestState === undefined || typeof requestState === 'string' ? requestState : '',
    owner,
    notify: async (notification) => {
      await notify({ method: notification.method, params: { ...notification.params } });
    },
    log: async (message) => {
      // The SDK's own log honours the level a 2026 request asked for (or a 2025 setLevel).
      if (log !== undefined) await log(message.level, message.data, message.logger);
    },
    takesLogs: !stateless || envelope?.[LOG_LEVEL] !== undefined,
    send: stateless
      ? undefined
      : (request, { signal, timeout }) =>
          answerOf(
            send({ method: request.method, params: { ...request.params } }, { signal, timeout }),
            signal,
          ),
  };
}

/** The request a v1 SDK `extra` describes. */
function fromV1Extra(server: McpToolServer, extra: Loose): McpHandlerRequest {
  const sendNotification = extra.sendNotification as AsyncFn;
  const sendRequest = extra.sendRequest as AsyncFn;
  return {
    id: String(extra.requestId),
    signal: extra.signal as AbortSignal,
    progressToken: progressTokenOf(extra._meta),
    meta: isRecord(extra._meta) ? extra._meta : undefined,
    stateless: false,
    clientCapabilities: server.server.getClientCapabilities(),
    inputResponses: undefined,
    requestState: undefined,
    owner: requestOwnerOf(extra),
    notify: async (notification) => {
      await sendNotification({ method: notification.method, params: { ...notification.params } });
    },
    log: async (message) => {
      await sendNotification({ method: 'notifications/message', params: { ...message } });
    },
    takesLogs: true,
    send: (request, { signal, timeout }) =>
      answerOf(
        sendRequest({ method: request.method, params: { ...request.params } }, ANY_RESULT, {
          signal,
          timeout,
        }),
        signal,
      ),
  };
}

/**
 * The request behind a tool handler's second argument: a v2 SDK context (`ctx.mcpReq`) or a v1
 * SDK `extra`. Throws a `TypeError` for anything else (a mount on something that is no SDK server).
 */
export function mcpHandlerRequestOf(server: McpToolServer, extra: unknown): McpHandlerRequest {
  if (!isRecord(extra)) throw new TypeError('the MCP server passed its tool handler no context');
  if (isRecord(extra.mcpReq)) return fromV2Context(server, extra.mcpReq, requestOwnerOf(extra));
  if (typeof extra.sendNotification === 'function' && extra.signal instanceof AbortSignal) {
    return fromV1Extra(server, extra);
  }
  throw new TypeError('the MCP server passed its tool handler a context of no known SDK line');
}
