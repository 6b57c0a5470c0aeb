/**
 * Types of the `mcpTask` machine: one MCP task driven to its end inside the tool call that
 * created it (decision 0042). Its input is what `mcpOperation` knew when the task was created;
 * its context holds data only (secrets stay wrapped in the shared actor base).
 */
import type { CallToolResult } from '../../binding/kernel/mcp-types.js';
import type {
  ConnectionOperation,
  InputRequest,
  PhaseLimits,
  RpcErrorBody,
} from '../../wire/index.js';
import type { TaskDeadline, TaskDetail, TaskRevision, TaskSnapshot } from '../../wire/mcp/tasks.js';
import type { ActorBase, RpcExchange } from '../mcp-operation/mcp-operation.types.js';
import type { CancelEvent, MachineResult } from '../run-machine.js';

/** A progress report, as the task hands it to whoever runs the call. */
export interface TaskProgress {
  readonly type: 'PROGRESS';
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Where the task's status messages (and, on 2025, the server's progress) go: the call's run. */
export interface TaskProgressSink {
  send(event: TaskProgress): void;
  /** The task ended: nothing more is sent. */
  close(): void;
}

/** What a run of `mcpTask` needs: the task the call created and how the call talks to its server. */
export interface McpTaskInput {
  /** The revision the call speaks: 2026-07-28 polls and updates; 2025-11-25 ends with `tasks/result`. */
  readonly revision: TaskRevision;
  /** The task as the creating answer described it. */
  readonly created: TaskSnapshot;
  /** The call's scope, fence, headers (token, session id, version) and caller relay. */
  readonly base: ActorBase;
  /** Where every task request goes: the connection URL. */
  readonly url: string;
  /** Each task request's own limits (the call phase's), and the task deadline. */
  readonly limits: { readonly request: PhaseLimits; readonly task: { readonly timeoutMs: number } };
  /** How many input rounds the task may ask before the call gives up. */
  readonly maxInputRounds: number;
  /** The call's progress token (2025: the server's progress for it stays valid for the task). */
  readonly progressToken?: string | number;
  /** Where status messages and progress go; absent when nobody listens. */
  readonly progressTo?: TaskProgressSink;
  /** The JSON-RPC id of the first task request; each later one takes the next. */
  readonly firstRequestId: number;
  /** How many polls in a row may fail in a way that mends itself; default `MAX_POLL_FAILURES`. */
  readonly maxPollFailures?: number;
  /**
   * 2026: the call resumes a task an earlier attempt left waiting for input; these are its
   * caller's answers, sent with `tasks/update` before the first poll (decision 0051).
   */
  readonly resumeWith?: Readonly<Record<string, unknown>>;
}

/** The context of `mcpTask`. */
export interface McpTaskContext {
  readonly revision: TaskRevision;
  readonly base: ActorBase;
  readonly url: string;
  readonly limits: McpTaskInput['limits'];
  readonly maxInputRounds: number;
  readonly progressToken: string | number | undefined;
  readonly progressTo: TaskProgressSink | undefined;
  /** The task as last seen. */
  readonly task: TaskSnapshot;
  /** When the creating answer arrived, on the caller's clock. */
  readonly createdAt: number;
  /** When the task deadline fires, and which bound it is (the call's deadline or the task's life). */
  readonly deadline: TaskDeadline;
  /** The task request in progress (or next), for the errors' scope. */
  readonly operation: ConnectionOperation;
  /** The call gave the task up while it may still run: `closing` sends `tasks/cancel`. */
  readonly abandoned: boolean;
  /** The input requests the caller has not answered yet (2026). */
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** Keys already answered: a key is answered once (the server may list it until it catches up). */
  readonly answeredKeys: readonly string[];
  /** Input rounds answered so far. */
  readonly inputRound: number;
  /** The caller's answers of the round in progress, for `tasks/update`. */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  /** The JSON-RPC id of the next task request. */
  readonly nextId: number;
  /** `tasks/get` requests answered so far. */
  readonly polls: number;
  /** `tasks/get` requests in a row that failed in a way that mends itself. */
  readonly pollFailures: number;
  /** How many may, before the call gives the task up. */
  readonly maxPollFailures: number;
  /** Status reports handed on as progress so far. */
  readonly reports: number;
  readonly outcome: McpTaskOutput | undefined;
}

/** Events `mcpTask` takes besides its actors' and delays': the caller's abort. */
export type McpTaskEvent = CancelEvent;

/** How one task request ended: the wire's refusals, or the decoded answer. */
export type TaskExchange =
  | Exclude<RpcExchange, { readonly kind: 'response' }>
  | { readonly kind: 'status'; readonly task: TaskDetail }
  | { readonly kind: 'ack' }
  | { readonly kind: 'result'; readonly result: CallToolResult };

/** How a task request's answer is read. */
export type TaskAnswerKind = 'status' | 'ack' | 'result';

/** The task's outcome: the tool's result (its `isError` kept), or the typed failure. */
export type McpTaskOutput = MachineResult<{ readonly result: CallToolResult }>;

/** The server's error of a `failed` task, as the task error keeps it. */
export type TaskFailure = RpcErrorBody;
