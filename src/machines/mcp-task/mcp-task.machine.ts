/**
 * `mcpTask`: one MCP task driven to its end inside the tool call that created it (decision 0042),
 * invoked by `mcpOperation` when a `tools/call` is answered with a task. It waits the server's
 * poll interval (clamped), asks `tasks/get`, and on 2026-07-28 answers the task's input rounds
 * through the call's caller (`tasks/update`); on 2025-11-25 it ends with `tasks/result`, which
 * brings the outcome (and the server's requests meanwhile). Every request has its own deadline;
 * the task has one of its own (`limits.task.timeoutMs`, never past the task's `ttlMs`). The
 * caller's abort, a deadline or a broken answer sends one bounded, best-effort `tasks/cancel`
 * before the end; a task the server ended, failed, cancelled or forgot sends none.
 */
import { setup } from 'xstate';
import {
  taskCancelRequest,
  taskGetRequest,
  taskResultRequest,
  taskUpdateRequest,
} from '../../wire/mcp/tasks.js';
import { errorOf, exchangeOf, reasonOf, type With } from '../connection-outcomes.js';
import { answerTaskInputInput, makeMcpTaskActors, taskExchangeInput } from './mcp-task.actors.js';
import {
  answerOf,
  CLOSING,
  deferringParams,
  failedRequest,
  mcpTaskActions,
  mcpTaskDelays,
  refusedAnswer,
  requestDeadline,
  retriedPoll,
  retriedPollStatus,
  seeStatus,
  statusParams,
  taskDeadline,
  unexpectedAnswer,
  type WithContext,
} from './mcp-task.edges.js';
import { mcpTaskGuards } from './mcp-task.guards.js';
import { deadlineOf, MAX_POLL_FAILURES } from './mcp-task.policy.js';
import type {
  McpTaskContext,
  McpTaskEvent,
  McpTaskInput,
  McpTaskOutput,
  TaskExchange,
} from './mcp-task.types.js';

/** `mcpTask`'s setup: every implementation by name (exported for tests that vary the chart). */
export const mcpTaskSetup = setup({
  types: {} as {
    context: McpTaskContext;
    events: McpTaskEvent;
    input: McpTaskInput;
    output: McpTaskOutput;
  },
  actors: makeMcpTaskActors(),
  guards: mcpTaskGuards,
  delays: mcpTaskDelays,
  actions: mcpTaskActions,
});

/** The `mcpTask` machine. Provide its actors with `makeMcpTaskActors(deps)`. */
export const mcpTaskMachine = mcpTaskSetup.createMachine({
  id: 'mcpTask',
  initial: 'starting',
  context: ({ input }) => {
    const createdAt = Date.now();
    const resumeWith = input.resumeWith;
    const context: McpTaskContext = {
      revision: input.revision,
      base: input.base,
      url: input.url,
      limits: input.limits,
      maxInputRounds: input.maxInputRounds,
      progressToken: input.progressToken,
      progressTo: input.progressTo,
      task: input.created,
      createdAt,
      deadline: deadlineOf({ createdAt, limits: input.limits }, input.created.ttlMs),
      operation: 'tasks/get',
      abandoned: false,
      inputRequests: {},
      // A resumed task's answers are sent first, each key once; they are a round answered.
      answeredKeys: resumeWith === undefined ? [] : Object.keys(resumeWith),
      inputRound: resumeWith === undefined ? 0 : 1,
      inputResponses: resumeWith,
      nextId: input.firstRequestId,
      polls: 0,
      pollFailures: 0,
      maxPollFailures: input.maxPollFailures ?? MAX_POLL_FAILURES,
      reports: 0,
      outcome: undefined,
    };
    return context;
  },
  // The caller's abort, from any state: the task is cancelled, and the outcome is its reason.
  on: {
    CANCEL: {
      target: '.closing',
      actions: [{ type: 'failCancelled', params: reasonOf }, 'abandonTask'],
    },
  },
  states: {
    // A task the call resumes sends its caller's answers first; a new one waits its first poll.
    starting: {
      always: [
        {
          guard: {
            type: 'bringsAnswers',
            params: ({ context }: WithContext) => ({ responses: context.inputResponses }),
          },
          target: 'updating',
        },
        { target: 'working' },
      ],
    },
    // The task runs on the server: wait the poll interval, then ask where it stands.
    working: {
      meta: { operation: 'tasks/get' },
      after: { POLL_DELAY: { target: 'polling' }, ...taskDeadline },
    },
    // `tasks/get`: the status, and on 2026 its payload (result, error or input requests).
    polling: {
      meta: { operation: 'tasks/get' },
      entry: { type: 'beginRequest', params: { operation: 'tasks/get' } },
      exit: 'nextRequestId',
      invoke: {
        id: 'getTask',
        src: 'taskExchange',
        input: ({ context }: WithContext) =>
          taskExchangeInput(
            context,
            taskGetRequest(context.task.taskId, context.revision),
            'status',
          ),
        onDone: [
          // A 401 and a forgotten task end the call; a status that mends itself is polled again.
          refusedAnswer[0],
          refusedAnswer[1],
          retriedPollStatus,
          refusedAnswer[2],
          {
            guard: { type: 'isCompleted', params: statusParams },
            target: CLOSING,
            actions: [...seeStatus, { type: 'succeed', params: answerOf }],
          },
          {
            guard: { type: 'isFailed', params: statusParams },
            target: CLOSING,
            actions: [...seeStatus, { type: 'failTaskFailed', params: answerOf }],
          },
          {
            guard: { type: 'isCancelledByServer', params: exchangeOf<TaskExchange> },
            target: CLOSING,
            actions: [...seeStatus, 'failServerCancelled'],
          },
          {
            guard: { type: 'awaitsResult', params: statusParams },
            target: 'fetchingResult',
            actions: seeStatus,
          },
          // The caller answers by a retry: end with the questions; the task waits for them.
          {
            guard: { type: 'asksDeferringCaller', params: deferringParams },
            target: CLOSING,
            actions: [...seeStatus, { type: 'failDeferredTaskInput', params: answerOf }],
          },
          {
            guard: { type: 'asksForInput', params: statusParams },
            target: 'asking',
            actions: [...seeStatus, { type: 'assignInput', params: answerOf }],
          },
          {
            guard: { type: 'asksForInputPastLimit', params: statusParams },
            target: CLOSING,
            actions: [
              ...seeStatus,
              {
                type: 'failProtocol',
                params: { violation: 'asked for client input in more rounds than a call answers' },
              },
              'abandonTask',
            ],
          },
          // Working, or input the caller already gave and the server has not taken in yet.
          {
            guard: { type: 'isStatus', params: exchangeOf<TaskExchange> },
            target: 'working',
            actions: seeStatus,
          },
          unexpectedAnswer('ended a tasks/get without a response'),
        ],
        onError: [failedRequest[0], retriedPoll, failedRequest[1]],
      },
      after: requestDeadline,
    },
    // 2026: ask the call's caller what the task asks (a person may answer: the task deadline bounds it).
    asking: {
      meta: { operation: 'tasks/update' },
      entry: { type: 'beginRequest', params: { operation: 'tasks/update' } },
      invoke: {
        id: 'answerTaskInput',
        src: 'answerTaskInput',
        input: ({ context }: WithContext) => answerTaskInputInput(context),
        onDone: {
          target: 'updating',
          actions: {
            type: 'assignResponses',
            params: ({ event }: With<{ readonly output: Readonly<Record<string, unknown>> }>) => ({
              responses: event.output,
            }),
          },
        },
        onError: {
          target: CLOSING,
          actions: [{ type: 'failWithError', params: errorOf }, 'abandonTask'],
        },
      },
      after: taskDeadline,
    },
    // 2026: `tasks/update` with the caller's answers; then the task works on.
    updating: {
      meta: { operation: 'tasks/update' },
      entry: { type: 'beginRequest', params: { operation: 'tasks/update' } },
      exit: 'nextRequestId',
      invoke: {
        id: 'updateTask',
        src: 'taskExchange',
        input: ({ context }: WithContext) =>
          taskExchangeInput(
            context,
            taskUpdateRequest(context.task.taskId, context.inputResponses ?? {}),
            'ack',
          ),
        onDone: [
          ...refusedAnswer,
          { guard: { type: 'isAck', params: exchangeOf<TaskExchange> }, target: 'working' },
          unexpectedAnswer('ended a tasks/update without a response'),
        ],
        onError: failedRequest,
      },
      after: requestDeadline,
    },
    // 2025: `tasks/result` blocks until the task ends and answers what the call would have; the
    // server's requests for input come on its stream meanwhile. The task deadline bounds it.
    fetchingResult: {
      meta: { operation: 'tasks/result' },
      entry: { type: 'beginRequest', params: { operation: 'tasks/result' } },
      exit: 'nextRequestId',
      invoke: {
        id: 'fetchTaskResult',
        src: 'taskExchange',
        input: ({ context }: WithContext) =>
          taskExchangeInput(context, taskResultRequest(context.task.taskId), 'result'),
        onDone: [
          ...refusedAnswer,
          {
            guard: { type: 'isResult', params: exchangeOf<TaskExchange> },
            target: CLOSING,
            actions: { type: 'succeed', params: answerOf },
          },
          unexpectedAnswer('ended a tasks/result without a response'),
        ],
        onError: [
          {
            guard: { type: 'isGoneError', params: errorOf },
            target: CLOSING,
            actions: 'failTaskGone',
          },
          // The task's own outcome: the JSON-RPC error its tools/call ended with.
          {
            guard: { type: 'isRpcFailure', params: errorOf },
            target: CLOSING,
            actions: { type: 'failTaskResultError', params: errorOf },
          },
          { target: CLOSING, actions: [{ type: 'failWithError', params: errorOf }, 'abandonTask'] },
        ],
      },
      after: taskDeadline,
    },
    // The outcome is decided: a task the call gives up while it may still run is cancelled
    // first; one the server ended, failed, cancelled or forgot is not.
    closing: {
      always: [
        {
          guard: {
            type: 'abandonsTask',
            params: ({ context }: WithContext) => ({ abandoned: context.abandoned }),
          },
          target: 'cancelling',
        },
        { target: 'done' },
      ],
    },
    // One best-effort `tasks/cancel`, bounded; its answer never changes the outcome.
    cancelling: {
      meta: { operation: 'tasks/cancel' },
      entry: { type: 'beginRequest', params: { operation: 'tasks/cancel' } },
      exit: 'nextRequestId',
      invoke: {
        id: 'cancelTask',
        src: 'taskExchange',
        input: ({ context }: WithContext) =>
          taskExchangeInput(
            context,
            taskCancelRequest(context.task.taskId, context.revision),
            'ack',
          ),
        onDone: { target: 'done' },
        onError: { target: 'done' },
      },
      after: { CANCEL_DEADLINE: { target: 'done' } },
      // The outcome is decided; a second abort only gives up the cancellation.
      on: { CANCEL: { target: 'done' } },
    },
    // Final: what the caller answered is dropped, and the call hears nothing more.
    done: { type: 'final', entry: ['forgetAnswers', 'teardown'] },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('mcpTask reached its final state without an outcome'),
    },
});
