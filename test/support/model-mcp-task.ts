/**
 * The abstracted models of the `mcpTask` machine (2026-07-28 and 2025-11-25) for its model checks
 * and walks: the input, how a snapshot becomes a vertex, the concrete outcomes of each actor, and
 * the harness that walks a model on the real actor (every actor deferred until the walk settles it).
 */
import { vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { NO_CALLER } from '../../src/binding/contract/caller.js';
import { mcpTaskMachine } from '../../src/machines/mcp-task/mcp-task.machine.js';
import type {
  McpTaskContext,
  McpTaskInput,
  TaskExchange,
} from '../../src/machines/mcp-task/mcp-task.types.js';
import { SecretValue } from '../../src/machines/secret-value.js';
import {
  ConnectionNetworkError,
  ConnectionProtocolError,
  createHostFence,
} from '../../src/wire/index.js';
import type { TaskDetail } from '../../src/wire/mcp/tasks.js';
import { deferredActors } from './model-deferred.js';
import type { ModelOptions } from './model-graph.js';
import type { WalkHarness } from './model-walk.js';

const URL_OF_MODEL = 'http://127.0.0.1:7000/mcp';
const created = {
  taskId: 'task-1',
  status: 'working' as const,
  createdAt: '2026-12-05T00:00:00Z',
  lastUpdatedAt: '2026-12-05T00:00:00Z',
  ttlMs: null,
  pollIntervalMs: 500,
};

/** The modelled task: created working, no ttl, two input rounds at most. */
function inputOf(revision: McpTaskInput['revision']): McpTaskInput {
  return {
    revision,
    created,
    base: {
      scope: { connectionName: 'model', operation: 'tools/call', phase: 'call' },
      fence: createHostFence('model', new URL(URL_OF_MODEL)),
      headers: {
        staticHeaders: {},
        token: undefined,
        sessionId: undefined,
        protocolVersion: revision,
      },
      relay: undefined,
      callerCapabilities: {},
    },
    url: URL_OF_MODEL,
    limits: {
      request: { timeoutMs: 3_000, maxResponseBytes: 2_000 },
      task: { timeoutMs: 60_000 },
    },
    maxInputRounds: 2,
    firstRequestId: 3,
    // One poll may fail and be asked again; the second in a row ends the call (3 in real use).
    maxPollFailures: 1,
  };
}

const status = (task: Partial<TaskDetail> & Pick<TaskDetail, 'status'>): TaskExchange => ({
  kind: 'status',
  task: { ...created, ...task },
});
const asking = (key: string) =>
  status({
    status: 'input_required',
    inputRequests: { [key]: { method: 'elicitation/create', params: { message: `${key}?` } } },
  });
const refused = (status: number, code?: number): TaskExchange =>
  code === undefined
    ? { kind: 'http-error', status, body: 'refused' }
    : { kind: 'http-error', status, body: 'refused', rpcError: { code, message: 'no' } };
const gone = new ConnectionProtocolError({
  connectionName: 'model',
  operation: 'tasks/get',
  violation: 'answered with JSON-RPC error -32602',
  rpcCode: -32602,
  rpcMessage: 'Task not found',
});
const crashed = new ConnectionProtocolError({
  connectionName: 'model',
  operation: 'tasks/result',
  violation: 'answered with JSON-RPC error -32603',
  rpcCode: -32603,
  rpcMessage: 'job crashed',
});
const reset = new ConnectionNetworkError({
  connectionName: 'model',
  operation: 'tasks/get',
  failure: 'reset',
});
const done = (id: string, output: unknown): AnyEventObject => ({
  type: `xstate.done.actor.${id}`,
  output,
});
const failed = (id: string, error: unknown): AnyEventObject => ({
  type: `xstate.error.actor.${id}`,
  error,
});
/** Every way the wire refuses a task request, and an answer none of them expects. */
const refusals = (id: string) => [
  done(id, refused(401)),
  done(id, refused(400, -32602)),
  done(id, refused(400, -32021)),
  done(id, refused(500)),
  done(id, { kind: 'accepted', status: 202 }),
];

/** The concrete events of the models, per event type. */
const eventCases: Readonly<Record<string, readonly AnyEventObject[]>> = {
  'xstate.done.actor.getTask': [
    done('getTask', status({ status: 'working' })),
    done('getTask', status({ status: 'working', statusMessage: 'halfway' })),
    // The server shortens the task's life below the call's task deadline (30 s against 60 s).
    done('getTask', status({ status: 'working', ttlMs: 30_000 })),
    done('getTask', asking('confirm')),
    done('getTask', asking('second')),
    done('getTask', status({ status: 'completed', result: { content: [] } })),
    done('getTask', status({ status: 'failed', error: { code: -32603, message: 'crashed' } })),
    done('getTask', status({ status: 'cancelled' })),
    ...refusals('getTask'),
    // A status that mends itself: polled again, as many times in a row as the input allows.
    done('getTask', refused(503)),
  ],
  'xstate.error.actor.getTask': [
    failed('getTask', gone),
    failed('getTask', new Error('network')),
    // A connection reset: polled again, as many times in a row as the input allows.
    failed('getTask', reset),
  ],
  'xstate.done.actor.answerTaskInput': [
    { type: 'xstate.done.actor.answerTaskInput', output: { confirm: { action: 'accept' } } },
    { type: 'xstate.done.actor.answerTaskInput', output: { second: { action: 'accept' } } },
  ],
  'xstate.error.actor.answerTaskInput': [failed('answerTaskInput', new Error('refused'))],
  'xstate.done.actor.updateTask': [done('updateTask', { kind: 'ack' }), ...refusals('updateTask')],
  'xstate.error.actor.updateTask': [
    failed('updateTask', gone),
    failed('updateTask', new Error('network')),
  ],
  'xstate.done.actor.fetchTaskResult': [
    done('fetchTaskResult', { kind: 'result', result: { content: [], isError: true } }),
    ...refusals('fetchTaskResult'),
  ],
  'xstate.error.actor.fetchTaskResult': [
    failed('fetchTaskResult', gone),
    failed('fetchTaskResult', crashed),
    failed('fetchTaskResult', new Error('network')),
  ],
  'xstate.done.actor.cancelTask': [done('cancelTask', { kind: 'ack' })],
  'xstate.error.actor.cancelTask': [failed('cancelTask', new Error('network'))],
  CANCEL: [{ type: 'CANCEL', reason: 'caller stopped' }],
};

/** The outcome of a final snapshot: `ok`, the error's code (or class), or none. */
function outcomeOf(context: McpTaskContext): string {
  const outcome = context.outcome;
  if (outcome === undefined) return 'none';
  if (outcome.ok) return 'ok';
  const error = outcome.error as { code?: string; end?: string } | string;
  if (typeof error === 'string') return 'cancelled';
  return error.end === undefined ? (error.code ?? 'Error') : `${error.code}:${error.end}`;
}

/**
 * Vertex key: the state, the answered keys and rounds, the polls failed in a row, which bound the
 * task deadline is, and the outcome once one is decided (the answer to a key depends on what was answered before it).
 */
export function serializeMcpTaskState(snapshot: AnyMachineSnapshot): string {
  const context = snapshot.context as McpTaskContext;
  return JSON.stringify({
    value: snapshot.value,
    answered: [...context.answeredKeys].sort(),
    failures: context.pollFailures,
    by: context.deadline.by,
    outcome: outcomeOf(context),
  });
}

/**
 * Only the earliest timer of a state fires. The task deadline (30 or 60 s from the start) is
 * later than the poll delay (500 ms) and a request's window (3 s) on every path of the model, so
 * it fires only where no other timer runs: while the caller answers (`asking`) and while a 2025
 * `tasks/result` is held (`fetchingResult`). The run tests take it from the other states.
 */
export function isPossibleMcpTaskEvent(
  snapshot: AnyMachineSnapshot,
  event: AnyEventObject,
): boolean {
  if (!event.type.startsWith('xstate.after.TASK_DEADLINE.')) return true;
  return snapshot.matches('asking') || snapshot.matches('fetchingResult');
}

const modelOptionsOf = (revision: McpTaskInput['revision']): ModelOptions => ({
  input: inputOf(revision),
  serializeState: serializeMcpTaskState,
  eventCases,
  isPossible: isPossibleMcpTaskEvent,
});

/** A task on MCP 2026-07-28: polls, input rounds with `tasks/update`, and the inlined outcome. */
export const mcpTaskStatelessModelOptions = modelOptionsOf('2026-07-28');
/** A task on 2025-11-25: polls, then `tasks/result` for the outcome or the server's requests. */
export const mcpTaskSessionModelOptions = modelOptionsOf('2025-11-25');

/**
 * A 2026 task a retry resumes (decision 0051): its caller answers only by a retry of the call (a
 * gateway's 2026 client), and brings the answers to the question the task asked the last attempt;
 * they go out with `tasks/update` before the first poll, and a new question ends the call again.
 */
export const mcpTaskResumedModelOptions: ModelOptions = {
  ...mcpTaskStatelessModelOptions,
  input: {
    ...inputOf('2026-07-28'),
    created: { ...created, status: 'input_required' },
    base: {
      ...inputOf('2026-07-28').base,
      relay: new SecretValue({
        ...NO_CALLER,
        capabilities: { elicitation: {} },
        defersInput: true,
      }),
    },
    resumeWith: { confirm: { action: 'accept', content: { confirm: true } } },
  },
};

/** The models of `mcpTask`, named as the sections of `mcp-task.edges.txt`. */
export const MCP_TASK_MODELS: readonly { readonly name: string; readonly options: ModelOptions }[] =
  [
    { name: 'task, protocol 2026-07-28', options: mcpTaskStatelessModelOptions },
    { name: 'task, protocol 2025-11-25', options: mcpTaskSessionModelOptions },
    {
      name: 'task resumed with a retry’s answers, protocol 2026-07-28',
      options: mcpTaskResumedModelOptions,
    },
  ];

/** `mcpTask` (or a defective copy) ready to walk the model `options`. */
export function mcpTaskWalkHarness(
  options: ModelOptions,
  definition: AnyStateMachine = mcpTaskMachine,
): WalkHarness {
  const deferred = deferredActors(options);
  return {
    machine: definition.provide({
      actors: { taskExchange: deferred.actor, answerTaskInput: deferred.actor },
    } as never),
    options: {
      ...options,
      beforePath: () => {
        deferred.clear();
        vi.setSystemTime(0);
      },
      executors: deferred.executors,
    },
  };
}
