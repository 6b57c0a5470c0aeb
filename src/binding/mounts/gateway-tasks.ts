/**
 * The gateway's task relay (MCP 2026-07-28 tasks extension, SEP-2663; decision 0050). A client
 * that declares `io.modelcontextprotocol/tasks` on a call gets the upstream's task passed
 * through: `mountMcp` answers `resultType: "task"` with an id of the gateway's that seals the
 * upstream's id, the mounted tool and the client it was minted for, and serves `tasks/get`,
 * `tasks/update` and `tasks/cancel` by forwarding them upstream with the id unsealed and relaying
 * the answers as written (only `taskId` replaced). Nothing is held in the process: any gateway
 * instance with the same key serves any request, as `createMcpHandler` needs. Installed on a v2
 * SDK server only (the v1 line speaks 2025-11-25, whose clients never declare the extension).
 */
import { z } from 'zod';
import { toolErrorEnvelope, toolResultFromError } from '../contract/tool-result.js';
import {
  type McpCreatedTask,
  type McpTaskRelayRequest,
  type McpTaskRequester,
  mcpTaskRequesterOf,
  TASKS_EXTENSION,
} from '../kernel/mcp-protocols.js';
import { JSON_RPC_ERROR, MCP_RPC_ERROR } from '../kernel/rpc-codes.js';
import { isRecord } from '../kernel/type-guards.js';
import type { GatewayStateCodec } from './gateway-state.js';
import { type McpHandlerRequest, type McpToolServer, mcpHandlerRequestOf } from './mcp-request.js';

/** The methods the relay serves. */
const RELAYED_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;
type RelayedMethod = (typeof RELAYED_METHODS)[number];

/** The longest a relayed task id is honoured when neither bound is known: the default task deadline. */
const DEFAULT_ID_LIFETIME_MS = 600_000;

/** Whether 2026 client capabilities declare the tasks extension. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  if (!isRecord(capabilities) || !isRecord(capabilities.extensions)) return false;
  return capabilities.extensions[TASKS_EXTENSION] !== undefined;
}

/** A JSON-RPC error a request handler throws: the v2 SDK answers its code, message and data. */
function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

/** The `-32021` a `tasks/*` request gets when it did not declare the extension. */
function missingExtension(): Error {
  return rpcError(MCP_RPC_ERROR.missingClientCapability, 'Missing required client capability', {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

/**
 * The task answer a gateway gives its client for the upstream's `task`, created by a call of
 * `tool`: the upstream's fields as written, its id replaced by a sealed one that expires with the
 * lesser of the task's `ttlMs` and the connection's task deadline.
 */
export function relayedTaskAnswer(
  states: GatewayStateCodec,
  task: McpCreatedTask,
  tool: string,
  owner: string | undefined,
  requester: McpTaskRequester,
): Record<string, unknown> {
  const lifetimeMs = Math.min(
    task.ttlMs ?? Number.POSITIVE_INFINITY,
    requester.taskTimeoutMs > 0 ? requester.taskTimeoutMs : DEFAULT_ID_LIFETIME_MS,
  );
  const taskId = states.sealTask({
    tool,
    upstream: task.taskId,
    owner,
    expiresAt: Date.now() + lifetimeMs,
  });
  return { resultType: 'task', ...task, taskId };
}

/** The upstream request a client's `tasks/*` request becomes, with the upstream's id. */
function upstreamRequestOf(
  method: RelayedMethod,
  params: Readonly<Record<string, unknown>>,
  request: McpHandlerRequest,
  upstream: string,
): McpTaskRelayRequest {
  if (method !== 'tasks/update') return { method, taskId: upstream };
  // The v2 SDK lifts a request's `inputResponses` out of its params into `ctx.mcpReq`.
  const responses = params.inputResponses ?? request.inputResponses;
  if (!isRecord(responses))
    throw rpcError(JSON_RPC_ERROR.invalidParams, 'inputResponses must be an object');
  return { method, taskId: upstream, inputResponses: responses };
}

/** The JSON-RPC error a failed forward is answered with: the upstream's own, else -32603. */
function forwardFailure(error: unknown): Error {
  const cause = error as { rpcCode?: unknown; rpcMessage?: unknown; rpcData?: unknown };
  if (typeof cause?.rpcCode === 'number' && typeof cause.rpcMessage === 'string') {
    return rpcError(cause.rpcCode, cause.rpcMessage, cause.rpcData);
  }
  // Our own typed failure (a timeout, a refused answer): its safe envelope, as a tool's would be.
  return rpcError(
    JSON_RPC_ERROR.internalError,
    'The upstream task request failed',
    toolErrorEnvelope(toolResultFromError(error)),
  );
}

/** What the relay needs from the mount. */
export interface TaskRelaySource {
  /** The mount's definitions as they stand (a catalog's inner tools included). */
  tools(): readonly { readonly name: string }[];
  /** The handler context a forwarded request resolves credentials for (the mount's, as a call's). */
  contextOf(signal: AbortSignal): Readonly<Record<string, unknown>>;
}

/** The low-level v2 SDK server calls the relay uses, when `server` has them. */
interface LowLevelServer {
  registerCapabilities(capabilities: Readonly<Record<string, unknown>>): void;
  setRequestHandler(
    method: string,
    schema: { readonly params: z.ZodType },
    handler: (params: Readonly<Record<string, unknown>>, ctx: unknown) => Promise<unknown>,
  ): void;
}

function lowLevelOf(server: McpToolServer): LowLevelServer | undefined {
  const low: unknown = server.server;
  if (!isRecord(low)) return undefined;
  return typeof low.registerCapabilities === 'function' &&
    typeof low.setRequestHandler === 'function'
    ? (low as unknown as LowLevelServer)
    : undefined;
}

const TASK_PARAMS = z.looseObject({ taskId: z.string() });

const requesterIndexes = new WeakMap<object, ReadonlyMap<string, McpTaskRequester>>();

/**
 * The task requesters of `tools`, by tool name. Built once per frozen array (what
 * `mountConnections` returns): a v2 gateway mounts the same tools on a server per request, and
 * neither the mount nor a forwarded request scans them again.
 */
function requestersOf(
  tools: readonly { readonly name: string }[],
): ReadonlyMap<string, McpTaskRequester> {
  const known = requesterIndexes.get(tools);
  if (known !== undefined) return known;
  const index = new Map<string, McpTaskRequester>();
  for (const definition of tools) {
    const requester = mcpTaskRequesterOf(definition);
    if (requester !== undefined) index.set(definition.name, requester);
  }
  if (Object.isFrozen(tools)) requesterIndexes.set(tools, index);
  return index;
}

/** The relay a mount installed: which calls may hand their task back, and the answer it gives. */
export interface TaskRelay {
  /**
   * The requester of `definition` when its call for `request` may end with the upstream's task:
   * the request came on MCP 2026-07-28 and declared the extension, the tool has one, and the
   * registered tool has no `outputSchema` (the SDK turns a task answer of such a tool into an
   * `isError` result). `undefined` otherwise: the gateway then drives the task itself.
   */
  requesterFor(
    definition: unknown,
    request: McpHandlerRequest,
    hasOutputSchema: boolean,
  ): McpTaskRequester | undefined;
  /** The client's task answer for the upstream's `task`, with the gateway's sealed id. */
  answer(
    task: McpCreatedTask,
    tool: string,
    request: McpHandlerRequest,
    requester: McpTaskRequester,
  ): Record<string, unknown>;
}

/**
 * Declares the tasks extension on `server` and serves `tasks/get`, `tasks/update` and
 * `tasks/cancel` for the tasks its calls hand back, when some definition of the mount relays
 * tasks (an MCP connection's). Must run before the server connects (the SDK refuses capabilities
 * after). `undefined` when nothing is installed: no such definition, or a server without the v2
 * low-level calls.
 */
export function createTaskRelay(
  server: McpToolServer,
  states: GatewayStateCodec,
  source: TaskRelaySource,
): TaskRelay | undefined {
  const low = lowLevelOf(server);
  if (low === undefined || requestersOf(source.tools()).size === 0) return undefined;
  low.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  for (const method of RELAYED_METHODS) {
    low.setRequestHandler(method, { params: TASK_PARAMS }, (params, ctx) =>
      forward(method, params, mcpHandlerRequestOf(server, ctx), states, source),
    );
  }
  return {
    requesterFor(definition, request, hasOutputSchema) {
      if (!request.stateless || hasOutputSchema) return undefined;
      if (!declaresTasksExtension(request.clientCapabilities)) return undefined;
      return mcpTaskRequesterOf(definition);
    },
    answer: (task, tool, request, requester) =>
      relayedTaskAnswer(states, task, tool, request.owner, requester),
  };
}

/**
 * One client `tasks/*` request (read as a tool call's is, `mcpHandlerRequestOf`): checked,
 * unsealed, forwarded, and its answer relayed.
 */
async function forward(
  method: RelayedMethod,
  params: Readonly<Record<string, unknown>>,
  request: McpHandlerRequest,
  states: GatewayStateCodec,
  source: TaskRelaySource,
): Promise<Readonly<Record<string, unknown>>> {
  // Only a 2026 request declares the extension, in its own `_meta`.
  if (!request.stateless || !declaresTasksExtension(request.clientCapabilities)) {
    throw missingExtension();
  }
  // A tampered, expired or foreign id, or another client's, is one the gateway does not know.
  const sealed = states.openTask(String(params.taskId));
  if (sealed === undefined || sealed.owner !== request.owner) {
    throw rpcError(JSON_RPC_ERROR.invalidParams, 'Task not found');
  }
  const requester = requestersOf(source.tools()).get(sealed.tool);
  if (requester === undefined) throw rpcError(JSON_RPC_ERROR.invalidParams, 'Task not found');
  const upstream = upstreamRequestOf(method, params, request, sealed.upstream);
  const { signal } = request;
  let answer: Readonly<Record<string, unknown>>;
  try {
    answer = await requester.send(upstream, { signal, context: source.contextOf(signal) });
  } catch (error) {
    throw forwardFailure(error);
  }
  // Relayed as written; only the id is the gateway's.
  return method === 'tasks/get' ? { ...answer, taskId: params.taskId } : answer;
}
