/**
 * The named guards of `mcpTask`. Each is a total predicate over typed params the chart maps from
 * the event or context at the transition. Pure: no I/O.
 */

import { isRetryableStatus } from '../../binding/kernel/app-error.js';
import { JSON_RPC_ERROR } from '../../binding/kernel/rpc-codes.js';
import {
  ConnectionProtocolError,
  isUnauthorizedStatus,
  STATELESS_REVISION,
} from '../../wire/index.js';
import type { TaskRevision, TaskStatus } from '../../wire/mcp/tasks.js';
import { isTransientPollFailure, unansweredOf } from './mcp-task.policy.js';
import type { TaskExchange } from './mcp-task.types.js';

/** `-32602`: the server no longer knows the task (expired, purged, or never created). */
export const TASK_NOT_FOUND = JSON_RPC_ERROR.invalidParams;

/** How a task request ended. */
export interface ExchangeParams {
  readonly exchange: TaskExchange;
}

/** The polls failed in a row, and how many may. */
export interface FailureParams {
  readonly failures: number;
  readonly maxFailures: number;
}

/** A status answer, and where the call stands with the task's input rounds. */
export interface StatusParams extends ExchangeParams {
  readonly revision: TaskRevision;
  readonly answeredKeys: readonly string[];
  readonly round: number;
  readonly maxRounds: number;
}

const statusOf = (exchange: TaskExchange): TaskStatus | undefined =>
  exchange.kind === 'status' ? exchange.task.status : undefined;

/** Whether an `input_required` status asks anything the caller has not answered yet. */
function asksNew({ exchange, answeredKeys }: StatusParams): boolean {
  return (
    exchange.kind === 'status' &&
    exchange.task.status === 'input_required' &&
    Object.keys(unansweredOf(exchange.task, answeredKeys)).length > 0
  );
}

/** The guards of `mcpTask`, by name. */
export const mcpTaskGuards = {
  /** 401: the credential is missing, expired or revoked; the host must reauthorize. */
  isUnauthorized: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error' && isUnauthorizedStatus(exchange.status),
  /** A refusal (HTTP 4xx with a JSON-RPC body) saying the task is unknown. */
  isTaskGone: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error' && exchange.rpcError?.code === TASK_NOT_FOUND,
  /** A poll refused with a status that mends itself, and polls may still fail in a row. */
  retriesPollStatus: (
    _: unknown,
    { exchange, failures, maxFailures }: ExchangeParams & FailureParams,
  ): boolean =>
    exchange.kind === 'http-error' && isRetryableStatus(exchange.status) && failures < maxFailures,
  /** A poll that failed on the network in a way that mends itself, with failures left. */
  retriesPoll: (
    _: unknown,
    { error, failures, maxFailures }: { readonly error: unknown } & FailureParams,
  ): boolean => isTransientPollFailure(error) && failures < maxFailures,
  /** Any other refused status. */
  isHttpError: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error',
  /** A JSON-RPC error answer (HTTP 200) saying the task is unknown. */
  isGoneError: (_: unknown, { error }: { readonly error: unknown }): boolean =>
    error instanceof ConnectionProtocolError && error.rpcCode === TASK_NOT_FOUND,
  /** A JSON-RPC error answer: on 2025 `tasks/result` it is the task's own outcome. */
  isRpcFailure: (_: unknown, { error }: { readonly error: unknown }): boolean =>
    error instanceof ConnectionProtocolError && error.rpcCode !== undefined,
  /** 2026: the task completed; its result is inlined. */
  isCompleted: (_: unknown, { exchange, revision }: StatusParams): boolean =>
    revision === STATELESS_REVISION && statusOf(exchange) === 'completed',
  /** 2026: the task failed; its JSON-RPC error is inlined. */
  isFailed: (_: unknown, { exchange, revision }: StatusParams): boolean =>
    revision === STATELESS_REVISION && statusOf(exchange) === 'failed',
  /** The server cancelled the task (either revision). */
  isCancelledByServer: (_: unknown, { exchange }: ExchangeParams): boolean =>
    statusOf(exchange) === 'cancelled',
  /**
   * 2025: the outcome (or the server's requests for input) comes with `tasks/result`, which the
   * client sends once the task ended or asks for input.
   */
  awaitsResult: (_: unknown, { exchange, revision }: StatusParams): boolean => {
    const status = statusOf(exchange);
    return (
      revision !== STATELESS_REVISION &&
      (status === 'completed' || status === 'failed' || status === 'input_required')
    );
  },
  /**
   * 2026: the task asks the caller something new, and the caller answers only by a retry of the
   * whole call (a gateway's 2026 client): the call ends with the questions and the task, which
   * waits upstream for the retry's answers (decision 0051).
   */
  asksDeferringCaller: (
    _: unknown,
    params: StatusParams & { readonly defersInput: boolean },
  ): boolean => params.defersInput && params.revision === STATELESS_REVISION && asksNew(params),
  /** 2026: the task asks the caller something new, and the call has rounds left. */
  asksForInput: (_: unknown, params: StatusParams): boolean =>
    params.revision === STATELESS_REVISION && asksNew(params) && params.round < params.maxRounds,
  /** 2026: the task asks something new past the call's rounds. */
  asksForInputPastLimit: (_: unknown, params: StatusParams): boolean =>
    params.revision === STATELESS_REVISION && asksNew(params) && params.round >= params.maxRounds,
  /** A status answer: the task goes on (working, or input the caller already gave). */
  isStatus: (_: unknown, { exchange }: ExchangeParams): boolean => exchange.kind === 'status',
  /** An acknowledgement of `tasks/update`. */
  isAck: (_: unknown, { exchange }: ExchangeParams): boolean => exchange.kind === 'ack',
  /** The call gave the task up while it may still run: it is cancelled before the end. */
  abandonsTask: (_: unknown, { abandoned }: { readonly abandoned: boolean }): boolean => abandoned,
  /** The call resumes a task with the answers its caller brings: they are sent before any poll. */
  bringsAnswers: (
    _: unknown,
    { responses }: { readonly responses: Readonly<Record<string, unknown>> | undefined },
  ): boolean => responses !== undefined,
  /** The call's result from a 2025 `tasks/result`. */
  isResult: (_: unknown, { exchange }: ExchangeParams): boolean => exchange.kind === 'result',
};
