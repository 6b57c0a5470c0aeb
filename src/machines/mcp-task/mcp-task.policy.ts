/**
 * The pure rules of `mcpTask`: which requests a task sends and how their answers are read, which
 * input a round asks for, and the task error each ending builds. No I/O.
 */
import type { CallToolResult } from '../../binding/kernel/mcp-types.js';
import {
  ConnectionNetworkError,
  type ConnectionOperation,
  ConnectionProtocolError,
  ConnectionTaskError,
  type InputRequest,
  isRetryableNetworkFailure,
  type OperationScope,
  parseCallToolResult,
  STATELESS_REVISION,
  type TaskEnd,
} from '../../wire/index.js';
import {
  type TaskDeadline,
  type TaskDetail,
  type TaskRequest,
  type TaskRevision,
  taskAckOf,
  taskDeadlineAt,
  taskStatusOf,
} from '../../wire/mcp/tasks.js';
import type { McpTaskContext, TaskAnswerKind, TaskExchange } from './mcp-task.types.js';

/**
 * How many `tasks/get` in a row may fail in a way that mends itself (a connection refused, reset
 * or closed; 408, 429, 502, 503, 504) before the call gives the task up. A poll is a pure read
 * (SEP-2663), so asking again is safe; a long task's hundreds of polls should not end on one blip.
 */
export const MAX_POLL_FAILURES = 3;

/** Whether a failed `tasks/get` may be asked again: a network failure that mends itself. */
export function isTransientPollFailure(error: unknown): boolean {
  return error instanceof ConnectionNetworkError && isRetryableNetworkFailure(error.failure);
}

/** The scope of one task request: the call's connection, the request's operation, the call phase. */
export function taskScope(
  context: Pick<McpTaskContext, 'base'>,
  operation: ConnectionOperation,
): OperationScope {
  return { ...context.base.scope, operation, phase: 'call', observedReadBytes: 0 };
}

/** The operation a task request is, for its scope and its errors. */
export function operationOf(request: TaskRequest): ConnectionOperation {
  return request.method;
}

/**
 * What a task request's answer says: a status (`tasks/get`), an acknowledgement (2026
 * `tasks/update` and `tasks/cancel`; a 2025 `tasks/cancel` answers the task, read as a status), or
 * the call's result (2025 `tasks/result`). A malformed answer throws the readers' refusal.
 */
export function readTaskAnswer(
  value: unknown,
  read: TaskAnswerKind,
  revision: TaskRevision,
  scope: OperationScope,
): TaskExchange {
  if (read === 'result') return { kind: 'result', result: parseCallToolResult(value, scope) };
  if (read === 'ack' && revision === STATELESS_REVISION) {
    taskAckOf(value, scope);
    return { kind: 'ack' };
  }
  if (read === 'ack') return { kind: 'ack' };
  return { kind: 'status', task: taskStatusOf(value, revision, scope) };
}

/** The input requests of an `input_required` status that were not answered yet, by key. */
export function unansweredOf(
  task: TaskDetail,
  answeredKeys: readonly string[],
): Readonly<Record<string, InputRequest>> {
  const asked = task.inputRequests ?? {};
  const open: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(asked)) {
    if (!answeredKeys.includes(key)) open[key] = request;
  }
  return open;
}

/**
 * When the task stops being waited for: the call's task deadline (fixed when the task was
 * created) or the task's life as the server last stated it, whichever is first.
 */
export function deadlineOf(
  context: Pick<McpTaskContext, 'createdAt' | 'limits'>,
  ttlMs: number | null,
): TaskDeadline {
  return taskDeadlineAt({
    timeoutAt: context.createdAt + context.limits.task.timeoutMs,
    createdAt: context.createdAt,
    ttlMs,
  });
}

/** The task error for an ending, with the task's id, last status and server words. */
export function taskError(
  context: Pick<McpTaskContext, 'base' | 'task'>,
  operation: ConnectionOperation,
  end: TaskEnd,
  extra: {
    readonly timeoutMs?: number;
    readonly rpcCode?: number;
    readonly rpcMessage?: string;
    readonly rpcData?: unknown;
    readonly cause?: unknown;
  } = {},
): ConnectionTaskError {
  const { task } = context;
  return new ConnectionTaskError({
    ...taskScope(context, operation),
    end,
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    ...extra,
  });
}

/** The JSON-RPC error a failed 2026 task carries, or the one a 2025 `tasks/result` answered. */
export function rpcFailureOf(error: unknown): {
  readonly rpcCode?: number;
  readonly rpcMessage?: string;
  readonly rpcData?: unknown;
} {
  if (!(error instanceof ConnectionProtocolError) || error.rpcCode === undefined) return {};
  return {
    rpcCode: error.rpcCode,
    ...(error.rpcMessage === undefined ? {} : { rpcMessage: error.rpcMessage }),
    ...(error.rpcData === undefined ? {} : { rpcData: error.rpcData }),
  };
}

/** The tool's result of a completed task, as the call returns it (its `isError` kept). */
export function completedResultOf(exchange: TaskExchange): CallToolResult | undefined {
  if (exchange.kind === 'result') return exchange.result;
  return exchange.kind === 'status' ? exchange.task.result : undefined;
}

/** Whether a new status says something the caller has not been told: its status or its words. */
export function statusChanged(
  before: Pick<TaskDetail, 'status' | 'statusMessage'>,
  after: Pick<TaskDetail, 'status' | 'statusMessage'>,
): boolean {
  return before.status !== after.status || before.statusMessage !== after.statusMessage;
}
