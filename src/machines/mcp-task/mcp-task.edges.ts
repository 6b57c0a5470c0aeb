/**
 * The glossary of `mcpTask`: the edge fragments its request states share, its named delays and
 * its actions (spread into the setup in `mcp-task.machine.ts`). A state of the task reads in at
 * most four files: the chart, this glossary, the guards and the actors.
 */
import { assign } from 'xstate';
import type { CallToolResult } from '../../binding/kernel/mcp-types.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionInputRequiredError,
  type ConnectionOperation,
  ConnectionProtocolError,
  ConnectionRequestError,
  type RpcErrorBody,
  rpcRefusalViolation,
  STATELESS_REVISION,
} from '../../wire/index.js';
import { pollDelayMs, TASK_CANCEL_TIMEOUT_MS } from '../../wire/mcp/tasks.js';
import {
  challengeOf,
  errorOf,
  exchangeOf,
  failed,
  type RefusalParams,
  refusalOf,
  runFailureActions,
  type With,
} from '../connection-outcomes.js';
import { remainingMs } from '../deadline.js';
import {
  completedResultOf,
  deadlineOf,
  rpcFailureOf,
  statusChanged,
  taskError,
  taskScope,
  unansweredOf,
} from './mcp-task.policy.js';
import type { McpTaskContext, McpTaskEvent, TaskExchange } from './mcp-task.types.js';

/** Where every outcome is decided: the task is cancelled when abandoned, then the run ends. */
export const CLOSING = 'closing';

/** What a mapper reads of the task machine's context. */
export type WithContext = { readonly context: McpTaskContext };
/** A task request's end, as a mapper reads it. */
export type TaskDone = With<{ readonly output: TaskExchange }>;

/** An `assign` typed for `mcpTask`'s context and events. */
function assignTask<P = undefined>(
  assignment: (
    args: { readonly context: McpTaskContext; readonly event: McpTaskEvent },
    params: P,
  ) => Partial<McpTaskContext>,
) {
  return assign<McpTaskContext, McpTaskEvent, P, McpTaskEvent, never>(assignment);
}

/** A status answer and where the call stands with the task's input rounds, for the guards. */
export const statusParams = ({ context, event }: WithContext & TaskDone) => ({
  exchange: event.output,
  revision: context.revision,
  answeredKeys: context.answeredKeys,
  round: context.inputRound,
  maxRounds: context.maxInputRounds,
});
/** A status answer, and whether the call's caller answers only by a retry of the whole call. */
export const deferringParams = (args: WithContext & TaskDone) => ({
  defersInput: args.context.base.relay?.reveal().defersInput === true,
  ...statusParams(args),
});
/** The answer in hand, for the actions that take it. */
export const answerOf = ({ event }: TaskDone) => ({ exchange: event.output });
// Taken only after `isHttpError` on a refusal with a JSON-RPC body.
const rpcRefusalOf = ({ event }: TaskDone) =>
  event.output.kind === 'http-error' && event.output.rpcError !== undefined
    ? { status: event.output.status, rpcError: event.output.rpcError }
    : undefined;

/** The task deadline: the task is cancelled, and the call ends with a timeout or expired task. */
export const taskDeadline = {
  TASK_DEADLINE: { target: CLOSING, actions: ['failTaskDeadline', 'abandonTask'] },
} as const;
/** A task request's own deadline: the task is cancelled, and the call ends with a timeout. */
export const requestDeadline = {
  REQUEST_DEADLINE: { target: CLOSING, actions: ['failRequestDeadline', 'abandonTask'] },
  ...taskDeadline,
} as const;

/** The answers every task request refuses alike: a 401, an unknown task, any other refusal. */
export const refusedAnswer = [
  {
    guard: { type: 'isUnauthorized', params: exchangeOf<TaskExchange> },
    target: CLOSING,
    actions: { type: 'failUnauthorized', params: challengeOf },
  },
  {
    guard: { type: 'isTaskGone', params: exchangeOf<TaskExchange> },
    target: CLOSING,
    actions: 'failTaskGone',
  },
  {
    guard: { type: 'isHttpError', params: exchangeOf<TaskExchange> },
    target: CLOSING,
    actions: [
      {
        type: 'failRefused',
        params: (args: TaskDone) => ({ refusal: refusalOf(args), rpc: rpcRefusalOf(args) }),
      },
      'abandonTask',
    ],
  },
] as const;

const failuresOf = ({ context }: WithContext) => ({
  failures: context.pollFailures,
  maxFailures: context.maxPollFailures,
});

/** A poll refused with a status that mends itself: poll again, up to a limit in a row. */
export const retriedPollStatus = {
  guard: {
    type: 'retriesPollStatus',
    params: (args: WithContext & TaskDone) => ({
      exchange: args.event.output,
      ...failuresOf(args),
    }),
  },
  target: 'working',
  actions: 'countPollFailure',
} as const;

/** A poll that failed on the network in a way that mends itself: poll again, up to a limit. */
export const retriedPoll = {
  guard: {
    type: 'retriesPoll',
    params: (args: WithContext & With<{ readonly error: unknown }>) => ({
      error: args.event.error,
      ...failuresOf(args),
    }),
  },
  target: 'working',
  actions: 'countPollFailure',
} as const;

/** A task request failed: an unknown task ends the call, any other failure cancels the task. */
export const failedRequest = [
  {
    guard: { type: 'isGoneError', params: errorOf },
    target: CLOSING,
    actions: 'failTaskGone',
  },
  { target: CLOSING, actions: [{ type: 'failWithError', params: errorOf }, 'abandonTask'] },
] as const;

/** An answer that is none of those the request expects. */
export function unexpectedAnswer(violation: string) {
  return {
    target: CLOSING,
    actions: [{ type: 'failProtocol', params: { violation } }, 'abandonTask'],
  } as const;
}

/** The status in hand becomes the task as last seen; a change of it is reported as progress. */
export const seeStatus = [
  { type: 'reportStatus', params: answerOf },
  { type: 'assignStatus', params: answerOf },
] as const;

/** The named deadlines of `mcpTask`. */
export const mcpTaskDelays = {
  // The server's latest interval, clamped (250 ms .. 30 s; 1 s when it sends none).
  POLL_DELAY: ({ context }: WithContext) => pollDelayMs(context.task.pollIntervalMs),
  // The first of the call's task deadline and the task's life, as the server last stated it.
  TASK_DEADLINE: ({ context }: WithContext) => remainingMs(context.deadline.at, Date.now()),
  // Each task request's own window: the call phase's deadline.
  REQUEST_DEADLINE: ({ context }: WithContext) => context.limits.request.timeoutMs,
  // `tasks/cancel` is best effort and bounded.
  CANCEL_DEADLINE: TASK_CANCEL_TIMEOUT_MS,
};

/** The actions of `mcpTask`, spread into its setup. */
export const mcpTaskActions = {
  ...runFailureActions<McpTaskContext, McpTaskEvent>(),
  beginRequest: assignTask((_, params: { operation: ConnectionOperation }) => ({
    operation: params.operation,
  })),
  // A poll failed in a way that mends itself: the next one, after the poll delay.
  countPollFailure: assignTask(({ context }) => ({ pollFailures: context.pollFailures + 1 })),
  // The call gives the task up while it may still run: teardown sends `tasks/cancel`.
  abandonTask: assignTask(() => ({ abandoned: true })),
  // The final snapshot outlives the run (observers, inspection): it keeps neither the caller's
  // answers nor the server's questions.
  forgetAnswers: assignTask(() => ({ inputResponses: undefined, inputRequests: {} })),
  // Nothing reaches the call once the task ended: a late progress report is dropped.
  teardown: ({ context }: { readonly context: McpTaskContext }) => {
    context.progressTo?.close();
  },
  // Each task request takes its own JSON-RPC id.
  nextRequestId: assignTask(({ context }) => ({ nextId: context.nextId + 1 })),
  // A status or its words changed: the call's caller hears it as progress. Only on 2026-07-28,
  // where a task sends no progress of its own; on 2025-11-25 the server's own progress for the
  // call's token is relayed, and a second count beside it would not increase.
  reportStatus: (
    { context }: { readonly context: McpTaskContext },
    params: { exchange: TaskExchange },
  ) => {
    if (params.exchange.kind !== 'status' || context.revision !== STATELESS_REVISION) return;
    const { task } = params.exchange;
    if (!statusChanged(context.task, task)) return;
    context.progressTo?.send({
      type: 'PROGRESS',
      progress: context.reports + 1,
      message: task.statusMessage ?? task.status,
    });
  },
  assignStatus: assignTask(({ context }, params: { exchange: TaskExchange }) => {
    if (params.exchange.kind !== 'status') return {};
    const { task } = params.exchange;
    return {
      task,
      deadline: deadlineOf(context, task.ttlMs),
      polls: context.polls + 1,
      pollFailures: 0,
      reports: context.reports + (statusChanged(context.task, task) ? 1 : 0),
    };
  }),
  // The task asks a caller that answers only by a retry: the call ends with a refusal saying so.
  // The caller answers by a retry: the call ends with the questions and the task, which waits
  // upstream for the answers (no `tasks/cancel`); the retry resumes it (decision 0051).
  failDeferredTaskInput: assignTask(({ context }, params: { exchange: TaskExchange }) => {
    const asked =
      params.exchange.kind === 'status'
        ? unansweredOf(params.exchange.task, context.answeredKeys)
        : {};
    return failed(
      new ConnectionInputRequiredError({
        ...context.base.scope,
        inputRequests: asked,
        taskId: context.task.taskId,
      }),
    );
  }),
  assignInput: assignTask(({ context }, params: { exchange: TaskExchange }) =>
    params.exchange.kind === 'status'
      ? { inputRequests: unansweredOf(params.exchange.task, context.answeredKeys) }
      : {},
  ),
  // The caller answered: each key once, and one round more.
  assignResponses: assignTask(
    ({ context }, params: { responses: Readonly<Record<string, unknown>> }) => ({
      inputResponses: params.responses,
      answeredKeys: [...context.answeredKeys, ...Object.keys(params.responses)],
      inputRound: context.inputRound + 1,
      inputRequests: {},
    }),
  ),
  succeed: assignTask((_, params: { exchange: TaskExchange }) => {
    const result: CallToolResult | undefined = completedResultOf(params.exchange);
    return result === undefined ? {} : { outcome: { ok: true, result } };
  }),
  failUnauthorized: assignTask(({ context }, params: { challenge: unknown }) =>
    failed(
      new ConnectionAuthorizationRequiredError({
        ...taskScope(context, context.operation),
        challenge: params.challenge as never,
      }),
    ),
  ),
  failRefused: assignTask(
    (
      { context },
      params: {
        refusal: RefusalParams;
        rpc: { status: number; rpcError: RpcErrorBody } | undefined;
      },
    ) => {
      const scope = taskScope(context, context.operation);
      if (params.rpc === undefined) {
        return failed(new ConnectionRequestError({ ...scope, ...params.refusal }));
      }
      const { status, rpcError } = params.rpc;
      return failed(
        new ConnectionProtocolError({
          ...scope,
          violation: rpcRefusalViolation(status, rpcError),
          rpcCode: rpcError.code,
          rpcMessage: rpcError.message,
          ...(rpcError.data === undefined ? {} : { rpcData: rpcError.data }),
        }),
      );
    },
  ),
  failProtocol: assignTask(({ context }, params: { violation: string }) =>
    failed(
      new ConnectionProtocolError({
        ...taskScope(context, context.operation),
        violation: params.violation,
      }),
    ),
  ),
  failTaskGone: assignTask(({ context }) => failed(taskError(context, context.operation, 'lost'))),
  // 2026: the error is inlined in the status.
  failTaskFailed: assignTask(({ context }, params: { exchange: TaskExchange }) => {
    const error = params.exchange.kind === 'status' ? params.exchange.task.error : undefined;
    return failed(
      taskError(context, context.operation, 'failed', {
        ...(error === undefined
          ? {}
          : {
              rpcCode: error.code,
              rpcMessage: error.message,
              ...(error.data === undefined ? {} : { rpcData: error.data }),
            }),
      }),
    );
  }),
  // 2025: `tasks/result` answered the task's JSON-RPC error.
  failTaskResultError: assignTask(({ context }, params: { error: unknown }) =>
    failed(
      taskError(context, context.operation, 'failed', {
        ...rpcFailureOf(params.error),
        cause: params.error,
      }),
    ),
  ),
  failServerCancelled: assignTask(({ context }) =>
    failed(taskError(context, context.operation, 'cancelled')),
  ),
  failTaskDeadline: assignTask(({ context }) =>
    failed(
      context.deadline.by === 'ttl'
        ? taskError(context, context.operation, 'expired', {
            timeoutMs: context.task.ttlMs ?? context.limits.task.timeoutMs,
          })
        : taskError(context, context.operation, 'timeout', {
            timeoutMs: context.limits.task.timeoutMs,
          }),
    ),
  ),
  failRequestDeadline: assignTask(({ context }) =>
    failed(
      taskError(context, context.operation, 'timeout', {
        timeoutMs: context.limits.request.timeoutMs,
      }),
    ),
  ),
};
