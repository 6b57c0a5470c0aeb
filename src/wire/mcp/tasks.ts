/**
 * MCP tasks on the wire, both revisions: what a client sends to drive a task, and strict readers
 * of what comes back. Pure: no I/O, no clock (time is passed in). 2026-07-28 is the extension
 * `io.modelcontextprotocol/tasks` (SEP-2663): declared in each request's `_meta`, a flat
 * `resultType: "task"` answer the server alone decides on, `tasks/get` with the payload inlined,
 * `tasks/update`, an acknowledged `tasks/cancel`, each routed by `Mcp-Name: <taskId>`. 2025-11-25
 * is the experimental core feature (basic/utilities/tasks): `params.task`, a nested `{ task }`
 * answer, `tasks/get` without payload, `tasks/result`, a `tasks/cancel` that returns the task.
 * Every refusal is a {@link ConnectionProtocolError} whose violation never quotes the server.
 */
import { TASKS_EXTENSION } from '../../binding/kernel/mcp-protocols.js';
import type { CallToolResult } from '../../binding/kernel/mcp-types.js';
import { isRecord } from '../../binding/kernel/type-guards.js';
import type { OperationScope } from '../core/operation.js';
import { ConnectionProtocolError } from '../errors/errors.js';
import { parseCallToolResult, type SESSION_REVISION } from './json-rpc.js';
import {
  type InputRequest,
  inputRequiredOf,
  type RpcErrorBody,
  STATELESS_REVISION,
} from './stateless.js';

/** The extension's identifier, the key of its declaration in `capabilities.extensions`. */
export { TASKS_EXTENSION };

/** The statuses of a task, the same on both revisions. */
export const TASK_STATUSES = Object.freeze([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
] as const);

/** The status of a task. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses a task never leaves (both revisions: "terminal states MUST NOT transition"). */
export const TERMINAL_TASK_STATUSES = Object.freeze<TaskStatus[]>([
  'completed',
  'failed',
  'cancelled',
]);

/** True for a status a task never leaves. */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

/** The revisions that define tasks: the 2026 extension and the 2025 experimental feature. */
export type TaskRevision = typeof STATELESS_REVISION | typeof SESSION_REVISION;

/** The poll delay when the server suggests none: 1 s, as the v1 TypeScript SDK, C# and mcpkit. */
export const DEFAULT_TASK_POLL_MS = 1_000;
/**
 * The shortest poll delay: a server's 1 ms must not make a call spin (each poll is a whole
 * request); four polls a second at most, any interval of a quarter second or more honoured.
 */
export const MIN_TASK_POLL_MS = 250;
/** The default deadline of a call that became a task, from creation to end: 10 minutes. */
export const DEFAULT_TASK_TIMEOUT_MS = 600_000;

/** How long a best-effort `tasks/cancel` may take (as the session's `DELETE`, decision 0005). */
export const TASK_CANCEL_TIMEOUT_MS = 2_000;

/** The longest poll delay, mcpkit's cap: an hour-long interval must not park a finished task. */
export const MAX_TASK_POLL_MS = 30_000;

/** The delay before the next `tasks/get`: the server's latest interval, clamped to our bounds. */
export function pollDelayMs(pollIntervalMs: number | undefined): number {
  if (pollIntervalMs === undefined || Number.isNaN(pollIntervalMs)) return DEFAULT_TASK_POLL_MS;
  return Math.min(MAX_TASK_POLL_MS, Math.max(MIN_TASK_POLL_MS, Math.round(pollIntervalMs)));
}

/** When a task stops being waited for, and which bound said so. */
export interface TaskDeadline {
  /** The absolute time, on the caller's clock. */
  readonly at: number;
  /** `timeout`: the call's task deadline; `ttl`: the task's time to live ran out first. */
  readonly by: 'timeout' | 'ttl';
}

/**
 * Which comes first: the call's task deadline (`timeoutAt`, its start plus the connection's task
 * timeout) or the end of the task's life (`createdAt + ttlMs`; never when `ttlMs` is null). Both
 * times are on the caller's clock: `createdAt` is when the creating answer arrived, since the
 * server's `createdAt` is on the server's clock. A tie is the call's own deadline.
 */
export function taskDeadlineAt(bounds: {
  readonly timeoutAt: number;
  readonly createdAt: number;
  readonly ttlMs: number | null;
}): TaskDeadline {
  const { timeoutAt, createdAt, ttlMs } = bounds;
  if (ttlMs !== null && createdAt + ttlMs < timeoutAt) return { at: createdAt + ttlMs, by: 'ttl' };
  return { at: timeoutAt, by: 'timeout' };
}

/**
 * `capabilities` with the tasks extension declared (2026-07-28), the other capabilities and
 * extensions kept; what a request's `_meta` client capabilities carry on every request of a call
 * that may become a task and on every `tasks/*` request. The input is not changed.
 */
export function withTasksExtension<T extends object>(
  capabilities: T,
): T & { readonly extensions: Readonly<Record<string, unknown>> } {
  const declared: unknown = (capabilities as { readonly extensions?: unknown }).extensions;
  const extensions: Record<string, unknown> = isRecord(declared) ? { ...declared } : {};
  extensions[TASKS_EXTENSION] = {};
  return Object.assign({}, capabilities, { extensions });
}

/**
 * The `tools/call` params of a task-augmented call (2025-11-25): `params.task`, with the
 * retention asked for (`ttl`, ms) when given. The input is not changed.
 */
export function withTaskAugmentation(
  params: Readonly<Record<string, unknown>>,
  ttlMs?: number,
): Record<string, unknown> {
  const augmented: Record<string, unknown> = { ...params };
  augmented.task = ttlMs === undefined ? {} : { ttl: ttlMs };
  return augmented;
}

/** One `tasks/*` request: its method and params, and on 2026-07-28 its routing headers. */
export interface TaskRequest {
  /** The JSON-RPC method. */
  readonly method: 'tasks/get' | 'tasks/update' | 'tasks/cancel' | 'tasks/result';
  /** Its params, without `_meta`: the 2026 envelope is the request builder's. */
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * 2026-07-28 only: `Mcp-Method` and `Mcp-Name` (the task id, raw); the request's header builder
   * writes the name through `mcpHeaderValue`, as it writes a tool's name.
   */
  readonly framing?: { readonly mcpMethod: string; readonly mcpName: string };
}

function taskRequest(
  method: TaskRequest['method'],
  params: Readonly<Record<string, unknown>> & { readonly taskId: string },
  revision: TaskRevision,
): TaskRequest {
  if (revision !== STATELESS_REVISION) return { method, params };
  return { method, params, framing: { mcpMethod: method, mcpName: params.taskId } };
}

/** `tasks/get {taskId}`, on either revision. */
export function taskGetRequest(taskId: string, revision: TaskRevision): TaskRequest {
  return taskRequest('tasks/get', { taskId }, revision);
}

/** `tasks/cancel {taskId}`, on either revision. */
export function taskCancelRequest(taskId: string, revision: TaskRevision): TaskRequest {
  return taskRequest('tasks/cancel', { taskId }, revision);
}

/** `tasks/update {taskId, inputResponses}` (2026-07-28): the caller's answers, keyed as asked. */
export function taskUpdateRequest(
  taskId: string,
  inputResponses: Readonly<Record<string, unknown>>,
): TaskRequest {
  return taskRequest('tasks/update', { taskId, inputResponses }, STATELESS_REVISION);
}

/**
 * `tasks/result {taskId}` (2025-11-25): blocks until the task ends, then answers exactly what the
 * `tools/call` would have (a result, read with `parseCallToolResult`, or a JSON-RPC error); the
 * server's requests for input travel on its stream meanwhile.
 */
export function taskResultRequest(taskId: string): TaskRequest {
  return { method: 'tasks/result', params: { taskId } };
}

/** A task as a client reads it, the same on both revisions (2025 `ttl`/`pollInterval` renamed). */
export interface TaskSnapshot {
  /** The server's id of the task, never empty. */
  readonly taskId: string;
  /** Where the task stands. */
  readonly status: TaskStatus;
  /** The server's words on the status, for hosts and progress. */
  readonly statusMessage?: string;
  /** ISO 8601, as the server wrote it (on the server's clock). */
  readonly createdAt: string;
  /** ISO 8601, as the server wrote it. */
  readonly lastUpdatedAt: string;
  /** How long after creation the server keeps the task, in ms; `null` for unlimited. */
  readonly ttlMs: number | null;
  /** The server's suggested poll interval, in ms, when it sent one. */
  readonly pollIntervalMs?: number;
}

/**
 * A task known only by its id and status, its times and retention unseen: a task a retry resumes
 * (decision 0051), and the fallback of a parameter taken only after a guard that saw the task.
 */
export function taskKnownBy(taskId: string, status: TaskStatus): TaskSnapshot {
  return { taskId, status, createdAt: '', lastUpdatedAt: '', ttlMs: null };
}

/**
 * A `tasks/get` answer. On 2026-07-28 the payload of its status is inlined: `result` when
 * `completed` (a tool's `isError` kept), `error` when `failed`, `inputRequests` when
 * `input_required`. On 2025-11-25 none is: `tasks/result` carries the outcome and the requests.
 */
export interface TaskDetail extends TaskSnapshot {
  /** 2026, `completed`: the tool's result, as the server wrote it. */
  readonly result?: CallToolResult;
  /** 2026, `failed`: the JSON-RPC error the request ended with. */
  readonly error?: RpcErrorBody;
  /** 2026, `input_required`: every request still outstanding, by key. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

type Refuse = (violation: string) => ConnectionProtocolError;

function refusal(scope: OperationScope): Refuse {
  return (violation) => new ConnectionProtocolError({ ...scope, violation });
}

/** The fields a 2026 creating answer must not carry (conformance, sep-2663 lifecycle). */
const NOT_ON_CREATION = ['task', 'result', 'error', 'inputRequests', 'requestState'] as const;

/** Each payload field of a 2026 `tasks/get` and the one status it belongs to. */
const PAYLOAD_STATUS = [
  ['result', 'completed'],
  ['error', 'failed'],
  ['inputRequests', 'input_required'],
] as const;

/**
 * The task a `tools/call` answer created, or `undefined` when the answer is not a task (a plain
 * result, read as before): on 2026-07-28 a flat `resultType: "task"` result, which carries no
 * payload; on 2025-11-25 a nested `{ task }`. A malformed task is refused.
 */
export function createdTaskOf(
  result: unknown,
  revision: TaskRevision,
  scope: OperationScope,
): TaskSnapshot | undefined {
  if (!isRecord(result)) return undefined;
  const refuse = refusal(scope);
  if (revision === STATELESS_REVISION) {
    if (result.resultType !== 'task') return undefined;
    for (const field of NOT_ON_CREATION) {
      if (result[field] !== undefined) throw refuse(`sent a task creation carrying ${field}`);
    }
    return snapshotOf(result, revision, refuse);
  }
  if (result.task === undefined) return undefined;
  if (!isRecord(result.task)) throw refuse('sent a task creation whose task is not an object');
  return snapshotOf(result.task, revision, refuse);
}

/**
 * A `tasks/get` answer (and, on 2025-11-25, a `tasks/cancel` answer, which is the task). On
 * 2026-07-28 `resultType` must be `complete` (`task` is only for the creating answer), no
 * `requestState`, and each status's payload present and no other status's.
 */
export function taskStatusOf(
  result: unknown,
  revision: TaskRevision,
  scope: OperationScope,
): TaskDetail {
  const refuse = refusal(scope);
  if (!isRecord(result)) throw refuse('sent a task status that is not an object');
  if (revision !== STATELESS_REVISION) return snapshotOf(result, revision, refuse);
  if (result.resultType !== 'complete') {
    throw refuse('sent a tasks/get result whose resultType is not complete');
  }
  if (result.requestState !== undefined) throw refuse('sent a task status carrying requestState');
  const task = snapshotOf(result, revision, refuse);
  for (const [field, status] of PAYLOAD_STATUS) {
    if (result[field] !== undefined && task.status !== status) {
      throw refuse(`sent a ${task.status} task carrying ${field}`);
    }
  }
  if (task.status === 'completed') {
    return { ...task, result: completedResultOf(result.result, scope, refuse) };
  }
  if (task.status === 'failed') return { ...task, error: failureOf(result.error, refuse) };
  if (task.status === 'input_required') {
    if (result.inputRequests === undefined) {
      throw refuse('sent an input_required task without inputRequests');
    }
    // The entries are read by the one reader of MRTR input requests, as an answer carries them.
    const asked = inputRequiredOf(
      { resultType: 'input_required', inputRequests: result.inputRequests },
      scope,
    );
    return { ...task, inputRequests: asked?.inputRequests ?? {} };
  }
  return task;
}

/** A 2026-07-28 `tasks/update` or `tasks/cancel` answer: an empty `resultType: "complete"`. */
export function taskAckOf(result: unknown, scope: OperationScope): void {
  if (!isRecord(result) || result.resultType !== 'complete') {
    throw refusal(scope)('sent a task acknowledgement whose resultType is not complete');
  }
}

/** The fields both revisions share, then the revision's own names for the two durations. */
function snapshotOf(
  value: Readonly<Record<string, unknown>>,
  revision: TaskRevision,
  refuse: Refuse,
): TaskSnapshot {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt } = value;
  if (typeof taskId !== 'string' || taskId === '') throw refuse('sent a task without a taskId');
  if (!isTaskStatus(status)) throw refuse('sent a task of an unknown status');
  if (statusMessage !== undefined && typeof statusMessage !== 'string') {
    throw refuse('sent a task whose statusMessage is not a string');
  }
  if (!isDateTime(createdAt)) throw refuse('sent a task whose createdAt is not an ISO 8601 time');
  if (!isDateTime(lastUpdatedAt)) {
    throw refuse('sent a task whose lastUpdatedAt is not an ISO 8601 time');
  }
  const { ttlMs, pollIntervalMs } =
    revision === STATELESS_REVISION
      ? statelessDurations(value, refuse)
      : sessionDurations(value, refuse);
  return {
    taskId,
    status,
    createdAt,
    lastUpdatedAt,
    ttlMs,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
  };
}

type Durations = { readonly ttlMs: number | null; readonly pollIntervalMs: number | undefined };

/** 2026-07-28: `ttlMs` an integer > 0 or null, `pollIntervalMs` one > 0; the 2025 names absent. */
function statelessDurations(value: Readonly<Record<string, unknown>>, refuse: Refuse): Durations {
  for (const legacy of ['ttl', 'pollInterval']) {
    if (value[legacy] !== undefined) throw refuse(`sent a task with the 2025 field ${legacy}`);
  }
  const { ttlMs, pollIntervalMs } = value;
  if (ttlMs !== null && !isPositiveInteger(ttlMs)) {
    throw refuse('sent a task whose ttlMs is neither a positive integer nor null');
  }
  if (pollIntervalMs !== undefined && !isPositiveInteger(pollIntervalMs)) {
    throw refuse('sent a task whose pollIntervalMs is not a positive integer');
  }
  return { ttlMs, pollIntervalMs };
}

/** 2025-11-25: `ttl` a number of ms or null (required), `pollInterval` a number of ms. */
function sessionDurations(value: Readonly<Record<string, unknown>>, refuse: Refuse): Durations {
  const { ttl, pollInterval } = value;
  if (ttl !== null && !isMilliseconds(ttl)) {
    throw refuse('sent a task whose ttl is neither a number of milliseconds nor null');
  }
  if (pollInterval !== undefined && !isMilliseconds(pollInterval)) {
    throw refuse('sent a task whose pollInterval is not a number of milliseconds');
  }
  return { ttlMs: ttl, pollIntervalMs: pollInterval };
}

/** The `result` of a completed 2026 task: a complete `CallToolResult` (or no `resultType`). */
function completedResultOf(value: unknown, scope: OperationScope, refuse: Refuse): CallToolResult {
  if (!isRecord(value)) throw refuse('sent a completed task without a result');
  if (value.resultType !== undefined && value.resultType !== 'complete') {
    throw refuse('sent a completed task whose result is not complete');
  }
  return parseCallToolResult(value, scope);
}

/** The `error` of a failed 2026 task: a JSON-RPC error object (integer code, string message). */
function failureOf(value: unknown, refuse: Refuse): RpcErrorBody {
  if (!isRecord(value) || !Number.isInteger(value.code) || typeof value.message !== 'string') {
    throw refuse('sent a failed task without a JSON-RPC error');
  }
  const { code, message, data } = value as { code: number; message: string; data?: unknown };
  return data === undefined ? { code, message } : { code, message, data };
}

function isTaskStatus(value: unknown): value is TaskStatus {
  return TASK_STATUSES.includes(value as TaskStatus);
}

function isPositiveInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

function isMilliseconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * RFC 3339's profile of ISO 8601, the one the specification links for `createdAt` and
 * `lastUpdatedAt`: a date, `T`, a time with optional fraction, and `Z` or an offset.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** True for an RFC 3339 date-time naming a real day (`Date.parse` alone takes February 30). */
function isDateTime(value: unknown): value is string {
  const parts = typeof value === 'string' ? DATE_TIME.exec(value) : null;
  if (parts === null) return false;
  const field = (index: number): number => Number(parts[index] ?? 0);
  const month = field(2);
  return (
    month >= 1 &&
    month <= 12 &&
    field(3) >= 1 &&
    field(3) <= daysIn(field(1), month) &&
    field(4) <= 23 &&
    field(5) <= 59 &&
    // 60: a leap second, which RFC 3339 allows.
    field(6) <= 60 &&
    field(7) <= 23 &&
    field(8) <= 59
  );
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
