/**
 * The I/O of `mcpTask`, as named actors, with the input builders that map its context onto each
 * actor's input: one task request (`tasks/get`, `tasks/update`, `tasks/result`, `tasks/cancel`),
 * sent as every request of the call is (the same headers, fence, byte ceiling and readers), and
 * the caller relay for the task's input rounds. Every actor stops when XState aborts its signal.
 */
import { fromPromise } from 'xstate';
import type { ConnectionOperation, WireSend } from '../../wire/index.js';
import type { TaskRequest } from '../../wire/mcp/tasks.js';
import { type ExchangeInput, runExchange } from '../mcp-operation/mcp-operation.exchange.js';
import { taskRequestMessage } from '../mcp-operation/mcp-operation.messages.js';
import {
  type AnswerInputInput,
  answerInputRequests,
} from '../mcp-operation/mcp-operation.server-requests.js';
import { readTaskAnswer, taskScope } from './mcp-task.policy.js';
import type {
  McpTaskContext,
  TaskAnswerKind,
  TaskExchange,
  TaskProgress,
} from './mcp-task.types.js';

/** Input of the `taskExchange` actor: one task request and how to read its answer. */
export interface TaskExchangeInput {
  /** The exchange as every request of the call is sent. */
  readonly exchange: ExchangeInput;
  /** How its answer is read. */
  readonly read: TaskAnswerKind;
  readonly revision: McpTaskContext['revision'];
}

/** The input of the `taskExchange` actor for `request`, under the task's next JSON-RPC id. */
export function taskExchangeInput(
  context: McpTaskContext,
  request: TaskRequest,
  read: TaskAnswerKind,
): TaskExchangeInput {
  const operation: ConnectionOperation = request.method;
  const { progressTo } = context;
  return {
    read,
    revision: context.revision,
    exchange: {
      base: { ...context.base, scope: taskScope(context, operation) },
      url: context.url,
      // Each request is bounded on its own: a long task's polls do not add up to one ceiling.
      maxBytes: context.limits.request.maxResponseBytes,
      alreadyRead: 0,
      // Status and the server's progress go to the call; bytes are counted by each read.
      reporter: {
        send: (event) => {
          if (event.type === 'PROGRESS') progressTo?.send(event as TaskProgress);
        },
      },
      method: 'POST',
      message: taskRequestMessage(
        request,
        context.nextId,
        context.revision,
        context.base.callerCapabilities,
        context.base.headers.trace,
      ),
      expectId: context.nextId,
      // 2025: the server's progress for the call's token may come while `tasks/result` is held.
      ...(context.progressToken === undefined || request.method !== 'tasks/result'
        ? {}
        : { progressToken: context.progressToken }),
      ...(request.framing === undefined ? {} : { stateless: request.framing }),
    },
  };
}

/** The input of the `answerTaskInput` actor: what the task asks in the round in progress. */
export function answerTaskInputInput(context: McpTaskContext): AnswerInputInput {
  return { base: context.base, inputRequests: context.inputRequests };
}

/** What the actors depend on: the HTTP sender (default the wire's own). */
export interface McpTaskDependencies {
  readonly send?: WireSend;
}

/** Builds the named actors of `mcpTask`; pass them to `mcpTaskMachine.provide`. */
export function makeMcpTaskActors(deps: McpTaskDependencies = {}) {
  const { send } = deps;
  return {
    /** One task request: the wire's refusals as they came, else the answer read strictly. */
    taskExchange: fromPromise<TaskExchange, TaskExchangeInput>(async ({ input, signal }) => {
      const exchange = await runExchange(input.exchange, signal, send);
      if (exchange.kind !== 'response') return exchange;
      return readTaskAnswer(exchange.value, input.read, input.revision, input.exchange.base.scope);
    }),

    /** Asks the call's caller what the task asks (2026 `inputRequests`), as MRTR rounds are. */
    answerTaskInput: fromPromise<Readonly<Record<string, unknown>>, AnswerInputInput>(
      ({ input, signal }) => answerInputRequests(input, signal),
    ),
  };
}
