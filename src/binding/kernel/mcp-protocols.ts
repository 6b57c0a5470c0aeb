/**
 * The MCP failure protocols: registered symbols under which a failure carries what only `mountMcp`
 * relays (an upstream's own `isError` result, its `input_required` questions, the client
 * capabilities it required), and their one reader. They sit in the kernel beside
 * `TOOL_ERROR_PROJECTION`, so the wire's error classes implement them without importing the tool
 * contract. Pure: no I/O.
 */
import type { McpCallPresentation } from './mcp-types.js';
import { brandSymbol, isPlainObject } from './type-guards.js';

/**
 * The symbol under which a failure carries the MCP result to relay as it is (an upstream tool's
 * own `isError` answer, re-exposed by a gateway). A registered symbol, so a second copy of the
 * package recognises it. Only `mountMcp` reads it; every other surface sees the failure's
 * model-safe projection.
 */
export const MCP_ERROR_PRESENTATION: unique symbol = brandSymbol('mcpErrorPresentation') as never;

/** A failure that carries the MCP content to relay verbatim (sent with `isError: true`). */
export interface McpErrorPresenting {
  /** The upstream's own content (and structured content, `_meta`); must not throw. */
  [MCP_ERROR_PRESENTATION](): McpCallPresentation;
}

/**
 * What `cause` presents under `symbol` (a method of the failure, called with it as `this`) when
 * `accept` takes it; `undefined` for a cause without the method, one that throws, or a value
 * `accept` refuses. The one reader of the failure protocols below.
 */
function presentedBy<T>(
  cause: unknown,
  symbol: symbol,
  accept: (value: unknown) => value is T,
): T | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const present = (cause as Record<symbol, unknown>)[symbol];
  if (typeof present !== 'function') return undefined;
  try {
    const value: unknown = present.call(cause);
    return accept(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The relayed MCP presentation of a failure's cause, or `undefined` when it carries none. */
export function mcpErrorPresentationOf(cause: unknown): McpCallPresentation | undefined {
  return presentedBy(
    cause,
    MCP_ERROR_PRESENTATION,
    (value): value is McpCallPresentation => isPlainObject(value) && Array.isArray(value.content),
  );
}

/** Questions an upstream asked a caller that answers by a retry, and the upstream's state. */
export interface McpInputRequest {
  /** The questions, by the keys the upstream gave them (`elicitation/create`, ...), as written. */
  readonly inputRequests: Readonly<Record<string, unknown>>;
  /** The upstream's `requestState`, exactly as it was sent, when it sent one. */
  readonly requestState?: string;
  /**
   * The upstream task that asked (MCP 2026-07-28 tasks), when the questions came from inside one:
   * it waits on the upstream for the answers, which a retry sends with `tasks/update`.
   */
  readonly taskId?: string;
}

/**
 * The symbol under which a failure carries an upstream's `input_required` for a caller that
 * answers by a retry (`ToolCallerHandler.defersInput`). A registered symbol, like
 * {@link MCP_ERROR_PRESENTATION}; only `mountMcp` reads it, and answers `input_required` itself.
 */
export const MCP_INPUT_REQUIRED: unique symbol = brandSymbol('mcpInputRequired') as never;

/** A failure that carries an upstream's questions for the caller. */
export interface McpInputRequiring {
  /** The questions and the upstream's state; must not throw. */
  [MCP_INPUT_REQUIRED](): McpInputRequest;
}

/** The upstream's questions a failure's cause carries, or `undefined` when it carries none. */
export function mcpInputRequestOf(cause: unknown): McpInputRequest | undefined {
  return presentedBy(
    cause,
    MCP_INPUT_REQUIRED,
    (value): value is McpInputRequest => isPlainObject(value) && isPlainObject(value.inputRequests),
  );
}

/**
 * The symbol under which a failure carries the client capabilities an upstream said the call
 * needs and the caller never declared (a JSON-RPC `-32021` refusal, MCP 2026-07-28). A
 * registered symbol; only `mountMcp` reads it, to refuse its own client the same way.
 */
export const MCP_REQUIRED_CAPABILITIES: unique symbol = brandSymbol(
  'mcpRequiredCapabilities',
) as never;

/** A failure that names the client capabilities its upstream required. */
export interface McpCapabilityRequiring {
  /** The required capabilities (`{ sampling: {} }`), or `undefined` when it names none. */
  [MCP_REQUIRED_CAPABILITIES](): Readonly<Record<string, unknown>> | undefined;
}

/** The capabilities a failure's cause says its upstream required, or `undefined`. */
export function mcpRequiredCapabilitiesOf(
  cause: unknown,
): Readonly<Record<string, unknown>> | undefined {
  return presentedBy(cause, MCP_REQUIRED_CAPABILITIES, isPlainObject);
}

/** The tasks extension of MCP 2026-07-28 (SEP-2663), as clients and servers declare it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * A task an upstream created for a call whose caller takes the task itself (a gateway in front of
 * a client that declared the tasks extension): the creating answer's fields, as the upstream
 * wrote them (2026-07-28 names).
 */
export interface McpCreatedTask {
  /** The upstream's id of the task. */
  readonly taskId: string;
  /** Where the task stands (`working`, `input_required`, ...). */
  readonly status: string;
  /** The upstream's words on the status, when it sent any. */
  readonly statusMessage?: string;
  /** ISO 8601, on the upstream's clock. */
  readonly createdAt: string;
  /** ISO 8601, on the upstream's clock. */
  readonly lastUpdatedAt: string;
  /** How long the upstream keeps the task, in ms; `null` for unlimited. */
  readonly ttlMs: number | null;
  /** The upstream's suggested poll interval, in ms, when it sent one. */
  readonly pollIntervalMs?: number;
}

/**
 * The symbol under which a failure carries the task its upstream created for a caller that takes
 * tasks itself (`ToolCallerHandler.acceptsTasks`). A registered symbol, like
 * {@link MCP_INPUT_REQUIRED}; only `mountMcp` reads it, and answers with a task of its own.
 */
export const MCP_TASK_CREATED: unique symbol = brandSymbol('mcpTaskCreated') as never;

/** A failure that carries the task its upstream created. */
export interface McpTaskCreating {
  /** The task as the upstream described it; must not throw. */
  [MCP_TASK_CREATED](): McpCreatedTask;
}

/** The task a failure's cause carries, or `undefined` when it carries none. */
export function mcpCreatedTaskOf(cause: unknown): McpCreatedTask | undefined {
  return presentedBy(
    cause,
    MCP_TASK_CREATED,
    (value): value is McpCreatedTask =>
      isPlainObject(value) && typeof value.taskId === 'string' && value.taskId !== '',
  );
}

/** One `tasks/*` request a gateway forwards for its client, with the upstream's task id. */
export type McpTaskRelayRequest =
  | { readonly method: 'tasks/get' | 'tasks/cancel'; readonly taskId: string }
  | {
      readonly method: 'tasks/update';
      readonly taskId: string;
      /** The client's answers, by the keys the upstream gave its questions. */
      readonly inputResponses: Readonly<Record<string, unknown>>;
    };

/**
 * How a tool whose calls may become upstream tasks sends the `tasks/*` requests of such a task: a
 * `tasks/get` answer as the upstream wrote it (checked; its `_meta` left out), `{}` for an
 * acknowledgement. A failure is a connection error; an upstream's JSON-RPC error keeps its code.
 */
export interface McpTaskRequester {
  /** Sends one request under the connection's credentials, resolved for `context`. */
  send(
    request: McpTaskRelayRequest,
    options: {
      readonly signal: AbortSignal;
      readonly context: Readonly<Record<string, unknown>>;
    },
  ): Promise<Readonly<Record<string, unknown>>>;
  /** How long the connection waits for one of its tasks (`limits.task.timeoutMs`). */
  readonly taskTimeoutMs: number;
}

/**
 * The symbol under which a tool definition (an MCP connection's) carries its
 * {@link McpTaskRequester}. A registered symbol; only `mountMcp` reads it, to relay tasks.
 */
export const MCP_TASK_REQUESTS: unique symbol = brandSymbol('mcpTaskRequests') as never;

/** The task requester a tool definition carries, or `undefined` when its calls never hand tasks back. */
export function mcpTaskRequesterOf(definition: unknown): McpTaskRequester | undefined {
  if (typeof definition !== 'object' || definition === null) return undefined;
  const requester = (definition as Record<symbol, unknown>)[MCP_TASK_REQUESTS];
  if (typeof requester !== 'object' || requester === null) return undefined;
  const { send, taskTimeoutMs } = requester as Partial<McpTaskRequester>;
  return typeof send === 'function' && typeof taskTimeoutMs === 'number'
    ? (requester as McpTaskRequester)
    : undefined;
}
