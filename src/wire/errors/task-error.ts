/**
 * A call that became an MCP task and did not end with a result: the server failed or cancelled
 * it, it vanished, or a deadline fired while it ran (decision 0042). It always names the task and
 * the last status the client saw, so a host can find the job on the server's side.
 */
import type { AppError } from '../../binding/kernel/app-error.js';
import { TOOL_ERROR_PROJECTION } from '../../binding/kernel/app-error.js';
import {
  MCP_TASK_CREATED,
  type McpCreatedTask,
  type McpTaskCreating,
} from '../../binding/kernel/mcp-protocols.js';
import {
  brandFor,
  CONNECTION_ERROR_CODES,
  type ConnectionErrorScope,
  ConnectionOperationError,
  duringOperation,
  MAX_ERROR_BODY_CHARS,
  projection,
} from './errors.js';

/**
 * Why the task ended the call: the server's `failed` (its JSON-RPC error kept), the server's
 * `cancelled`, `lost` (the server no longer knows the id: `-32602`), `timeout` (the task deadline,
 * `limits.task.timeoutMs`, or a task request's own deadline), `expired` (the task's `ttlMs`).
 */
export type TaskEnd = 'failed' | 'cancelled' | 'lost' | 'timeout' | 'expired';

/** The facts a task error carries beside its scope. */
export interface TaskErrorFields {
  /** Why the task ended the call. */
  readonly end: TaskEnd;
  /** The server's id of the task. */
  readonly taskId: string;
  /** The last status the client saw (`working`, `input_required`, or a terminal one). */
  readonly status: string;
  /** The server's last `statusMessage`, when it sent one (host-facing; never projected). */
  readonly statusMessage?: string;
  /** `timeout` and `expired`: the bound that fired, in milliseconds. */
  readonly timeoutMs?: number;
  /** `failed`: the JSON-RPC error the task ended with. */
  readonly rpcCode?: number;
  /** `failed`: its message (host-facing; never projected). */
  readonly rpcMessage?: string;
  /** `failed`: its `data`, as the server sent it (host-facing; never projected). */
  readonly rpcData?: unknown;
}

const DESCRIBED: Readonly<Record<TaskEnd, string>> = {
  failed: 'failed on the server',
  cancelled: 'was cancelled by the server',
  lost: 'is no longer known to the server',
  timeout: 'ran past its deadline',
  expired: 'outlived its ttlMs',
};

/** A tool call that became a task ended without a result. */
export class ConnectionTaskError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.task);
  override readonly name = 'ConnectionTaskError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.task;
  /** Why the task ended the call. */
  readonly end: TaskEnd;
  /** The server's id of the task. */
  readonly taskId: string;
  /** The last status the client saw. */
  readonly status: string;
  /** The server's last words on the status, when it sent any. */
  readonly statusMessage: string | undefined;
  /** `timeout` and `expired`: the bound that fired, in milliseconds. */
  readonly timeoutMs: number | undefined;
  /** `failed`: the JSON-RPC error code the task ended with. */
  readonly rpcCode: number | undefined;
  /** `failed`: the JSON-RPC error message. */
  readonly rpcMessage: string | undefined;
  /** `failed`: the JSON-RPC error data. */
  readonly rpcData: unknown;

  constructor(fields: ConnectionErrorScope & TaskErrorFields) {
    const bound = fields.timeoutMs === undefined ? '' : ` (${fields.timeoutMs} ms)`;
    const server =
      fields.rpcMessage === undefined
        ? ''
        : `: ${fields.rpcCode} ${fields.rpcMessage.slice(0, MAX_ERROR_BODY_CHARS)}`;
    super(
      fields,
      `task ${fields.taskId} ${DESCRIBED[fields.end]}${bound}${server}, last seen ${fields.status}${duringOperation(fields.operation)}`,
    );
    this.end = fields.end;
    this.taskId = fields.taskId;
    this.status = fields.status;
    // The server's words are kept bounded, as an error body's excerpt is.
    this.statusMessage = fields.statusMessage?.slice(0, MAX_ERROR_BODY_CHARS);
    this.timeoutMs = fields.timeoutMs;
    this.rpcCode = fields.rpcCode;
    this.rpcMessage = fields.rpcMessage?.slice(0, MAX_ERROR_BODY_CHARS);
    this.rpcData = fields.rpcData;
  }

  /**
   * `CONNECTION_TASK_FAILED`: 504 for a deadline or an expired task, else 502; not retryable (the
   * task may still run on the server). The model sees why and the last status, never the id's
   * server-side words.
   */
  [TOOL_ERROR_PROJECTION](): AppError {
    const timedOut = this.end === 'timeout' || this.end === 'expired';
    return projection(CONNECTION_ERROR_CODES.task, timedOut ? 504 : 502, {
      message: `The tool's task ${DESCRIBED[this.end]}.`,
      reason: `task-${this.end}`,
      status: this.status,
      timeoutMs: this.timeoutMs,
      rpcCode: this.rpcCode,
      operation: this.operation,
      phase: this.phase,
    });
  }
}

/**
 * A call whose upstream created a task, for a caller that takes the task itself (a gateway whose
 * client declared the tasks extension, decision 0050): the run ends with the task, which lives on
 * upstream, instead of driving it. Never seen by a host: `mountMcp` answers its client with the
 * task; anywhere else it reads as a failure with the task's id.
 */
export class ConnectionTaskCreatedError
  extends ConnectionOperationError
  implements McpTaskCreating
{
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.taskCreated);
  override readonly name = 'ConnectionTaskCreatedError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.taskCreated;
  /** The task, as the upstream's creating answer described it. */
  readonly task: McpCreatedTask;

  constructor(fields: ConnectionErrorScope & { readonly task: McpCreatedTask }) {
    super(
      fields,
      `created task ${fields.task.taskId} for a caller that polls it${duringOperation(fields.operation)}`,
    );
    this.task = fields.task;
  }

  /** The task, for the gateway that relays it. */
  [MCP_TASK_CREATED](): McpCreatedTask {
    return this.task;
  }

  /** `CONNECTION_TASK_CREATED` / 502, not retryable: the task runs on and is the caller's. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection(CONNECTION_ERROR_CODES.taskCreated, 502, {
      message: 'The tool runs as a task that its caller polls.',
      reason: 'task-created',
      status: this.task.status,
      operation: this.operation,
      phase: this.phase,
    });
  }
}
