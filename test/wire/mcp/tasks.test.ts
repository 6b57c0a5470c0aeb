/**
 * The MCP tasks wire, one `describe` per rule, the accepted answers taken from the
 * specifications' own examples (SEP-2663, the 2026-07-28 extension; basic/utilities/tasks of
 * 2025-11-25) and the conformance suite's client mock, each refusal pinned by class and violation,
 * and a property: whatever JSON a server sends, a reader returns a task or throws
 * `ConnectionProtocolError`, never anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConnectionProtocolError, operationScope } from '../../../src/wire/index.js';
import { META, mcpHeaderValue } from '../../../src/wire/mcp/stateless.js';
import {
  createdTaskOf,
  DEFAULT_TASK_POLL_MS,
  isTerminalTaskStatus,
  MAX_TASK_POLL_MS,
  MIN_TASK_POLL_MS,
  pollDelayMs,
  TASK_STATUSES,
  TASKS_EXTENSION,
  type TaskRevision,
  taskAckOf,
  taskCancelRequest,
  taskDeadlineAt,
  taskGetRequest,
  taskResultRequest,
  taskStatusOf,
  taskUpdateRequest,
  withTaskAugmentation,
  withTasksExtension,
} from '../../../src/wire/mcp/tasks.js';
import { fuzzParameters } from '../../fuzz/fuzz-config.js';

const scope = operationScope('tasks', 'tools/call');
const STATELESS: TaskRevision = '2026-07-28';
const SESSION: TaskRevision = '2025-11-25';
const ID = '786512e2-9e0d-44bd-8f29-789f320fe840';

/** The class and message of what `read` throws (`undefined` when it returns). */
function refusalOf(read: () => unknown): { readonly type: string; readonly message: string } {
  try {
    read();
  } catch (error) {
    return {
      type: error instanceof ConnectionProtocolError ? 'ConnectionProtocolError' : String(error),
      message: (error as Error).message,
    };
  }
  return { type: 'none', message: '' };
}

const refused = (violation: string) => ({
  type: 'ConnectionProtocolError',
  message: `Connection "tasks" ${violation}`,
});

/** SEP-2663, "Example Message Flow": the task's fields on every answer of the flow. */
const FLOW_TASK = {
  taskId: ID,
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:50:00Z',
  ttlMs: 3600000,
  pollIntervalMs: 5000,
};

/** SEP-2663, "Example Message Flow": the elicitation the task asks for. */
const NAME_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Please enter your name.',
    requestedSchema: {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    },
  },
};

/** SEP-2663, "Task Creation": the example `CreateTaskResult`. */
const SEP_CREATED = {
  resultType: 'task',
  taskId: ID,
  status: 'working',
  statusMessage: 'The operation is now in progress.',
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:40:00Z',
  ttlMs: 60000,
  pollIntervalMs: 5000,
};

/** 2025-11-25 tasks, "Creating Tasks": the example answer's task. */
const S25_TASK = {
  taskId: ID,
  status: 'working',
  statusMessage: 'The operation is now in progress.',
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:40:00Z',
  ttl: 60000,
  pollInterval: 5000,
};

describe('the tasks extension declared in the client capabilities (2026-07-28)', () => {
  it('writes the _meta of SEP-2663’s example tools/call under the capabilities key', () => {
    expect({ [META.clientCapabilities]: withTasksExtension({}) }).toEqual({
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    });
    expect(TASKS_EXTENSION).toBe('io.modelcontextprotocol/tasks');
  });

  it.each([
    [
      'keeps the caller’s capabilities',
      { sampling: {}, elicitation: { form: {} } },
      { sampling: {}, elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } },
    ],
    [
      'keeps the other extensions',
      { extensions: { 'com.example/trace': { level: 1 } } },
      { extensions: { 'com.example/trace': { level: 1 }, [TASKS_EXTENSION]: {} } },
    ],
    [
      'replaces extensions that are not an object',
      { extensions: 'x' },
      { extensions: { [TASKS_EXTENSION]: {} } },
    ],
  ])('%s', (_rule, capabilities, expected) => {
    const frozen = Object.freeze(structuredClone(capabilities));
    expect(withTasksExtension(frozen)).toEqual(expected);
    expect(frozen).toEqual(capabilities);
  });
});

describe('the statuses, and which are terminal', () => {
  it.each([
    ['working', false],
    ['input_required', false],
    ['completed', true],
    ['failed', true],
    ['cancelled', true],
  ] as const)('%s is terminal: %s', (status, terminal) => {
    expect(isTerminalTaskStatus(status)).toBe(terminal);
  });

  it('lists exactly the five statuses of both revisions', () => {
    expect(TASK_STATUSES).toEqual([
      'working',
      'input_required',
      'completed',
      'failed',
      'cancelled',
    ]);
  });
});

describe('the tasks/* requests: method, params, and on 2026-07-28 the routing headers', () => {
  it.each([
    [
      'tasks/get, 2026',
      taskGetRequest(ID, STATELESS),
      {
        method: 'tasks/get',
        params: { taskId: ID },
        framing: { mcpMethod: 'tasks/get', mcpName: ID },
      },
    ],
    [
      'tasks/cancel, 2026',
      taskCancelRequest(ID, STATELESS),
      {
        method: 'tasks/cancel',
        params: { taskId: ID },
        framing: { mcpMethod: 'tasks/cancel', mcpName: ID },
      },
    ],
    [
      'tasks/update, 2026 (SEP-2663’s example)',
      taskUpdateRequest(ID, { name: { action: 'accept', content: { input: 'Luca' } } }),
      {
        method: 'tasks/update',
        params: {
          taskId: ID,
          inputResponses: { name: { action: 'accept', content: { input: 'Luca' } } },
        },
        framing: { mcpMethod: 'tasks/update', mcpName: ID },
      },
    ],
    [
      'tasks/get, 2025',
      taskGetRequest(ID, SESSION),
      { method: 'tasks/get', params: { taskId: ID } },
    ],
    [
      'tasks/cancel, 2025',
      taskCancelRequest(ID, SESSION),
      { method: 'tasks/cancel', params: { taskId: ID } },
    ],
    [
      'tasks/result, 2025',
      taskResultRequest(ID),
      { method: 'tasks/result', params: { taskId: ID } },
    ],
  ])('%s', (_request, built, expected) => {
    expect(built).toEqual(expected);
  });

  it('routes by the raw task id, which mcpHeaderValue writes in its base64 form', () => {
    const request = taskGetRequest('tâche 1', STATELESS);
    expect(request.framing?.mcpName).toBe('tâche 1');
    expect(mcpHeaderValue(request.framing?.mcpName ?? '')).toBe(
      `=?base64?${Buffer.from('tâche 1').toString('base64')}?=`,
    );
  });
});

describe('a 2025-11-25 call asks for a task with params.task', () => {
  it('writes the example request of 2025-11-25 "Creating Tasks", its input untouched', () => {
    const params = Object.freeze({ name: 'get_weather', arguments: { city: 'New York' } });
    expect(withTaskAugmentation(params, 60000)).toEqual({
      name: 'get_weather',
      arguments: { city: 'New York' },
      task: { ttl: 60000 },
    });
    expect(withTaskAugmentation(params)).toEqual({ ...params, task: {} });
    expect(params).toEqual({ name: 'get_weather', arguments: { city: 'New York' } });
  });
});

describe('createdTaskOf reads the flat resultType "task" answer (2026-07-28)', () => {
  it.each([
    [
      'SEP-2663 "Task Creation"',
      SEP_CREATED,
      {
        taskId: ID,
        status: 'working',
        statusMessage: 'The operation is now in progress.',
        createdAt: '2025-11-25T10:30:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttlMs: 60000,
        pollIntervalMs: 5000,
      },
    ],
    [
      'SEP-2663 "Example Message Flow"',
      { resultType: 'task', status: 'working', ...FLOW_TASK },
      { status: 'working', ...FLOW_TASK },
    ],
    [
      'the conformance client mock (pollIntervalMs 1)',
      { ...SEP_CREATED, statusMessage: undefined, ttlMs: 60000, pollIntervalMs: 1 },
      { ...SEP_CREATED, resultType: undefined, statusMessage: undefined, pollIntervalMs: 1 },
    ],
    [
      'an unlimited task without a poll interval, offset and fraction in its times',
      {
        ...SEP_CREATED,
        ttlMs: null,
        pollIntervalMs: undefined,
        createdAt: '2025-11-25T10:30:00.123456+02:00',
        lastUpdatedAt: '2024-02-29t23:59:60z',
      },
      {
        taskId: ID,
        status: 'working',
        statusMessage: 'The operation is now in progress.',
        createdAt: '2025-11-25T10:30:00.123456+02:00',
        lastUpdatedAt: '2024-02-29t23:59:60z',
        ttlMs: null,
      },
    ],
  ])('accepts %s', (_example, answer, expected) => {
    expect(createdTaskOf(answer, STATELESS, scope)).toStrictEqual(
      JSON.parse(JSON.stringify(expected)),
    );
  });

  it.each([
    [{ content: [{ type: 'text', text: 'done' }] }],
    [{ resultType: 'complete', content: [] }],
    [{ resultType: 'input_required', inputRequests: { name: NAME_REQUEST } }],
    [{ task: S25_TASK }],
    [null],
    ['task'],
  ])('leaves %j to the plain reading (not a task)', (answer) => {
    expect(createdTaskOf(answer, STATELESS, scope)).toBeUndefined();
  });

  it.each([
    ['no taskId', { ...SEP_CREATED, taskId: undefined }, 'sent a task without a taskId'],
    ['an empty taskId', { ...SEP_CREATED, taskId: '' }, 'sent a task without a taskId'],
    ['a number taskId', { ...SEP_CREATED, taskId: 7 }, 'sent a task without a taskId'],
    [
      'an unknown status',
      { ...SEP_CREATED, status: 'running' },
      'sent a task of an unknown status',
    ],
    ['no status', { ...SEP_CREATED, status: undefined }, 'sent a task of an unknown status'],
    [
      'a statusMessage that is no string',
      { ...SEP_CREATED, statusMessage: 7 },
      'sent a task whose statusMessage is not a string',
    ],
    [
      'a createdAt without offset',
      { ...SEP_CREATED, createdAt: '2025-11-25T10:30:00' },
      'sent a task whose createdAt is not an ISO 8601 time',
    ],
    [
      'a createdAt with a space',
      { ...SEP_CREATED, createdAt: '2025-11-25 10:30:00Z' },
      'sent a task whose createdAt is not an ISO 8601 time',
    ],
    [
      'a createdAt of February 30',
      { ...SEP_CREATED, createdAt: '2025-02-30T10:30:00Z' },
      'sent a task whose createdAt is not an ISO 8601 time',
    ],
    [
      'a createdAt in epoch milliseconds',
      { ...SEP_CREATED, createdAt: 1764066600000 },
      'sent a task whose createdAt is not an ISO 8601 time',
    ],
    [
      'a lastUpdatedAt at hour 24',
      { ...SEP_CREATED, lastUpdatedAt: '2025-11-25T24:00:00Z' },
      'sent a task whose lastUpdatedAt is not an ISO 8601 time',
    ],
    [
      'a lastUpdatedAt with an offset of 24 hours',
      { ...SEP_CREATED, lastUpdatedAt: '2025-11-25T10:00:00+24:00' },
      'sent a task whose lastUpdatedAt is not an ISO 8601 time',
    ],
    [
      'no lastUpdatedAt',
      { ...SEP_CREATED, lastUpdatedAt: undefined },
      'sent a task whose lastUpdatedAt is not an ISO 8601 time',
    ],
    ['the 2025 ttl', { ...SEP_CREATED, ttl: 60000 }, 'sent a task with the 2025 field ttl'],
    [
      'the 2025 pollInterval',
      { ...SEP_CREATED, pollInterval: 5000 },
      'sent a task with the 2025 field pollInterval',
    ],
    [
      'the 2025 names only',
      { ...SEP_CREATED, ttlMs: undefined, pollIntervalMs: undefined, ttl: 60000 },
      'sent a task with the 2025 field ttl',
    ],
    [
      'no ttlMs',
      { ...SEP_CREATED, ttlMs: undefined },
      'sent a task whose ttlMs is neither a positive integer nor null',
    ],
    [
      'a ttlMs of 0',
      { ...SEP_CREATED, ttlMs: 0 },
      'sent a task whose ttlMs is neither a positive integer nor null',
    ],
    [
      'a fractional ttlMs',
      { ...SEP_CREATED, ttlMs: 1.5 },
      'sent a task whose ttlMs is neither a positive integer nor null',
    ],
    [
      'a ttlMs in a string',
      { ...SEP_CREATED, ttlMs: '60000' },
      'sent a task whose ttlMs is neither a positive integer nor null',
    ],
    [
      'a pollIntervalMs of 0',
      { ...SEP_CREATED, pollIntervalMs: 0 },
      'sent a task whose pollIntervalMs is not a positive integer',
    ],
    [
      'a negative pollIntervalMs',
      { ...SEP_CREATED, pollIntervalMs: -5000 },
      'sent a task whose pollIntervalMs is not a positive integer',
    ],
    ['a nested task', { ...SEP_CREATED, task: S25_TASK }, 'sent a task creation carrying task'],
    [
      'a result',
      { ...SEP_CREATED, result: { content: [] } },
      'sent a task creation carrying result',
    ],
    [
      'an error',
      { ...SEP_CREATED, error: { code: -32603, message: 'x' } },
      'sent a task creation carrying error',
    ],
    [
      'inputRequests',
      { ...SEP_CREATED, inputRequests: { name: NAME_REQUEST } },
      'sent a task creation carrying inputRequests',
    ],
    [
      'a requestState',
      { ...SEP_CREATED, requestState: 's' },
      'sent a task creation carrying requestState',
    ],
  ])('refuses %s', (_case, answer, violation) => {
    expect(refusalOf(() => createdTaskOf(answer, STATELESS, scope))).toEqual(refused(violation));
  });
});

describe('createdTaskOf reads the nested { task } answer (2025-11-25)', () => {
  it('accepts the example of "Creating Tasks", ttl and pollInterval renamed', () => {
    expect(createdTaskOf({ task: S25_TASK }, SESSION, scope)).toStrictEqual({
      taskId: ID,
      status: 'working',
      statusMessage: 'The operation is now in progress.',
      createdAt: '2025-11-25T10:30:00Z',
      lastUpdatedAt: '2025-11-25T10:40:00Z',
      ttlMs: 60000,
      pollIntervalMs: 5000,
    });
    expect(
      createdTaskOf({ task: { ...S25_TASK, ttl: null, pollInterval: undefined } }, SESSION, scope),
    ).toMatchObject({ ttlMs: null });
  });

  it.each([[{ content: [{ type: 'text', text: 'done' }] }], [SEP_CREATED], [[]]])(
    'leaves %j to the plain reading (not a task)',
    (answer) => {
      expect(createdTaskOf(answer, SESSION, scope)).toBeUndefined();
    },
  );

  it.each([
    ['a task that is no object', { task: 'x' }, 'sent a task creation whose task is not an object'],
    ['a task of null', { task: null }, 'sent a task creation whose task is not an object'],
    [
      'no ttl',
      { task: { ...S25_TASK, ttl: undefined } },
      'sent a task whose ttl is neither a number of milliseconds nor null',
    ],
    [
      'a negative ttl',
      { task: { ...S25_TASK, ttl: -1 } },
      'sent a task whose ttl is neither a number of milliseconds nor null',
    ],
    [
      'a pollInterval in a string',
      { task: { ...S25_TASK, pollInterval: '5000' } },
      'sent a task whose pollInterval is not a number of milliseconds',
    ],
    ['no taskId', { task: { ...S25_TASK, taskId: undefined } }, 'sent a task without a taskId'],
    [
      'a createdAt that is no time',
      { task: { ...S25_TASK, createdAt: 'now' } },
      'sent a task whose createdAt is not an ISO 8601 time',
    ],
  ])('refuses %s', (_case, answer, violation) => {
    expect(refusalOf(() => createdTaskOf(answer, SESSION, scope))).toEqual(refused(violation));
  });
});

describe('taskStatusOf reads a tasks/get answer with its payload inlined (2026-07-28)', () => {
  it.each([
    [
      'working (the flow’s id 3)',
      { resultType: 'complete', status: 'working', ...FLOW_TASK },
      { status: 'working', ...FLOW_TASK },
    ],
    [
      'input_required (the flow’s id 4), each request with its params',
      {
        resultType: 'complete',
        status: 'input_required',
        ...FLOW_TASK,
        inputRequests: { name: NAME_REQUEST },
      },
      { status: 'input_required', ...FLOW_TASK, inputRequests: { name: NAME_REQUEST } },
    ],
    [
      'completed (the flow’s id 8), the result inlined',
      {
        resultType: 'complete',
        status: 'completed',
        ...FLOW_TASK,
        result: { content: [{ type: 'text', text: 'Hello, Luca!' }], isError: false },
      },
      {
        status: 'completed',
        ...FLOW_TASK,
        result: { content: [{ type: 'text', text: 'Hello, Luca!' }], isError: false },
      },
    ],
    [
      'completed with a tool error, isError kept (the SEP’s example, resultType complete)',
      {
        resultType: 'complete',
        taskId: ID,
        status: 'completed',
        createdAt: '2025-11-25T10:30:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttlMs: 3600000,
        result: {
          content: [{ type: 'text', text: 'Failed to process request: invalid input' }],
          isError: true,
        },
      },
      {
        taskId: ID,
        status: 'completed',
        createdAt: '2025-11-25T10:30:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttlMs: 3600000,
        result: {
          content: [{ type: 'text', text: 'Failed to process request: invalid input' }],
          isError: true,
        },
      },
    ],
    [
      'completed, the inner result marked complete (the conformance client mock)',
      {
        ...SEP_CREATED,
        resultType: 'complete',
        status: 'completed',
        result: { resultType: 'complete', content: [{ type: 'text', text: 'echo' }] },
      },
      {
        ...SEP_CREATED,
        resultType: undefined,
        status: 'completed',
        result: { resultType: 'complete', content: [{ type: 'text', text: 'echo' }] },
      },
    ],
    [
      'failed, the JSON-RPC error kept (the SEP’s example, resultType complete)',
      {
        resultType: 'complete',
        taskId: ID,
        status: 'failed',
        createdAt: '2025-11-25T10:30:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttlMs: 3600000,
        statusMessage: 'Tool execution failed: API rate limit exceeded',
        error: { code: -32603, message: 'API rate limit exceeded' },
      },
      {
        taskId: ID,
        status: 'failed',
        createdAt: '2025-11-25T10:30:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttlMs: 3600000,
        statusMessage: 'Tool execution failed: API rate limit exceeded',
        error: { code: -32603, message: 'API rate limit exceeded' },
      },
    ],
    [
      'failed with error data',
      {
        resultType: 'complete',
        status: 'failed',
        ...FLOW_TASK,
        error: { code: -32000, message: 'quota', data: { retryAfterMs: 5 } },
      },
      {
        status: 'failed',
        ...FLOW_TASK,
        error: { code: -32000, message: 'quota', data: { retryAfterMs: 5 } },
      },
    ],
    [
      'cancelled',
      { resultType: 'complete', status: 'cancelled', ...FLOW_TASK },
      { status: 'cancelled', ...FLOW_TASK },
    ],
  ])('accepts %s', (_example, answer, expected) => {
    expect(taskStatusOf(answer, STATELESS, scope)).toStrictEqual(
      JSON.parse(JSON.stringify(expected)),
    );
  });

  const get = (status: string, payload: Record<string, unknown> = {}) => ({
    resultType: 'complete',
    status,
    ...FLOW_TASK,
    ...payload,
  });

  it.each([
    ['an answer that is no object', 'working', 'sent a task status that is not an object'],
    [
      'the SEP’s failed example as printed (resultType "task")',
      { ...get('failed', { error: { code: -32603, message: 'x' } }), resultType: 'task' },
      'sent a tasks/get result whose resultType is not complete',
    ],
    [
      'no resultType',
      { ...get('working'), resultType: undefined },
      'sent a tasks/get result whose resultType is not complete',
    ],
    [
      'a requestState',
      get('working', { requestState: 's' }),
      'sent a task status carrying requestState',
    ],
    ['the 2025 ttl', get('working', { ttl: 1 }), 'sent a task with the 2025 field ttl'],
    ['an unknown status', get('done'), 'sent a task of an unknown status'],
    [
      'a working task with a result',
      get('working', { result: { content: [] } }),
      'sent a working task carrying result',
    ],
    [
      'a completed task with an error',
      get('completed', { result: { content: [] }, error: { code: 1, message: 'x' } }),
      'sent a completed task carrying error',
    ],
    [
      'a cancelled task with inputRequests',
      get('cancelled', { inputRequests: {} }),
      'sent a cancelled task carrying inputRequests',
    ],
    [
      'a failed task with a result',
      get('failed', { error: { code: 1, message: 'x' }, result: { content: [] } }),
      'sent a failed task carrying result',
    ],
    [
      'a completed task without a result',
      get('completed'),
      'sent a completed task without a result',
    ],
    [
      'a completed task whose result asks for input',
      get('completed', { result: { resultType: 'input_required', content: [] } }),
      'sent a completed task whose result is not complete',
    ],
    [
      'a completed task whose result is no tool result',
      get('completed', { result: { content: 'Hello' } }),
      'sent an invalid MCP tools/call result',
    ],
    [
      'a failed task without an error',
      get('failed'),
      'sent a failed task without a JSON-RPC error',
    ],
    [
      'a failed task whose code is a string',
      get('failed', { error: { code: '-32603', message: 'x' } }),
      'sent a failed task without a JSON-RPC error',
    ],
    [
      'a failed task whose error has no message',
      get('failed', { error: { code: -32603 } }),
      'sent a failed task without a JSON-RPC error',
    ],
    [
      'an input_required task without inputRequests',
      get('input_required'),
      'sent an input_required task without inputRequests',
    ],
    [
      'inputRequests in a list',
      get('input_required', { inputRequests: [NAME_REQUEST] }),
      'sent inputRequests that are not an object',
    ],
    [
      'an input request without a method',
      get('input_required', { inputRequests: { name: { params: {} } } }),
      'sent an input request without a method',
    ],
  ])('refuses %s', (_case, answer, violation) => {
    expect(refusalOf(() => taskStatusOf(answer, STATELESS, scope))).toEqual(refused(violation));
  });
});

describe('taskStatusOf reads a 2025-11-25 tasks/get or tasks/cancel answer, no payload', () => {
  it.each([
    [
      'the "Getting Tasks" example',
      { ...S25_TASK, ttl: 30000 },
      { ...S25_TASK, ttl: undefined, pollInterval: undefined, ttlMs: 30000, pollIntervalMs: 5000 },
    ],
    [
      'the "Cancelling Tasks" example',
      {
        ...S25_TASK,
        status: 'cancelled',
        statusMessage: 'The task was cancelled by request.',
        ttl: 30000,
      },
      {
        ...S25_TASK,
        status: 'cancelled',
        statusMessage: 'The task was cancelled by request.',
        ttl: undefined,
        pollInterval: undefined,
        ttlMs: 30000,
        pollIntervalMs: 5000,
      },
    ],
    [
      'the second task of the "Listing Tasks" example (completed, no poll interval)',
      {
        taskId: 'abc123-def456-ghi789',
        status: 'completed',
        createdAt: '2025-11-25T09:15:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttl: 60000,
      },
      {
        taskId: 'abc123-def456-ghi789',
        status: 'completed',
        createdAt: '2025-11-25T09:15:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttlMs: 60000,
      },
    ],
  ])('accepts %s', (_example, answer, expected) => {
    expect(taskStatusOf(answer, SESSION, scope)).toStrictEqual(
      JSON.parse(JSON.stringify(expected)),
    );
  });

  it.each([
    ['an answer that is no object', null, 'sent a task status that is not an object'],
    ['an unknown status', { ...S25_TASK, status: 'paused' }, 'sent a task of an unknown status'],
    [
      'no ttl',
      { ...S25_TASK, ttl: undefined },
      'sent a task whose ttl is neither a number of milliseconds nor null',
    ],
  ])('refuses %s', (_case, answer, violation) => {
    expect(refusalOf(() => taskStatusOf(answer, SESSION, scope))).toEqual(refused(violation));
  });
});

describe('taskAckOf reads the empty ack of tasks/update and tasks/cancel (2026-07-28)', () => {
  it.each([[{ resultType: 'complete' }], [{ resultType: 'complete', _meta: {} }]])(
    'accepts %j',
    (answer) => {
      expect(refusalOf(() => taskAckOf(answer, scope))).toEqual({ type: 'none', message: '' });
    },
  );

  it.each([[{}], [{ resultType: 'task' }], [null], [{ ...S25_TASK, status: 'cancelled' }]])(
    'refuses %j',
    (answer) => {
      expect(refusalOf(() => taskAckOf(answer, scope))).toEqual(
        refused('sent a task acknowledgement whose resultType is not complete'),
      );
    },
  );
});

describe('pollDelayMs follows the server’s interval inside our bounds', () => {
  it('bounds a quarter second to half a minute, one second by default', () => {
    expect([MIN_TASK_POLL_MS, DEFAULT_TASK_POLL_MS, MAX_TASK_POLL_MS]).toEqual([250, 1000, 30000]);
  });

  it.each([
    [undefined, 1000],
    [Number.NaN, 1000],
    [1, 250],
    [0, 250],
    [-5000, 250],
    [249, 250],
    [250, 250],
    [300, 300],
    [299.6, 300],
    [5000, 5000],
    [30000, 30000],
    [30001, 30000],
    [3600000, 30000],
    [Number.POSITIVE_INFINITY, 30000],
  ])('%s -> %s ms', (interval, delay) => {
    expect(pollDelayMs(interval)).toBe(delay);
  });
});

describe('taskDeadlineAt: the first of the call’s task deadline and the task’s end', () => {
  it.each([
    [
      'an unlimited task waits for the call’s deadline',
      1_000,
      null,
      { at: 600_000, by: 'timeout' },
    ],
    ['a task living past the deadline', 1_000, 3_600_000, { at: 600_000, by: 'timeout' }],
    ['a task ending before it', 1_000, 60_000, { at: 61_000, by: 'ttl' }],
    [
      'a task ending with it: the call’s own deadline',
      1_000,
      599_000,
      { at: 600_000, by: 'timeout' },
    ],
  ] as const)('%s', (_case, createdAt, ttlMs, deadline) => {
    expect(taskDeadlineAt({ timeoutAt: 600_000, createdAt, ttlMs })).toEqual(deadline);
  });
});

describe('the readers under any JSON: a task or a ConnectionProtocolError, nothing else', () => {
  const fuzzScope = operationScope('fuzz', 'tools/call');
  const FIELDS = [
    'resultType',
    'taskId',
    'status',
    'statusMessage',
    'createdAt',
    'lastUpdatedAt',
    'ttlMs',
    'pollIntervalMs',
    'ttl',
    'pollInterval',
    'result',
    'error',
    'inputRequests',
    'requestState',
    'task',
  ];
  const value = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(
      undefined,
      null,
      0,
      -1,
      1.5,
      60000,
      '',
      ...TASK_STATUSES,
      'complete',
      'task',
      '2025-11-25T10:30:00.5+01:00',
      '2025-02-30T10:30:00Z',
      { content: [{ type: 'text', text: 'ok' }], isError: true },
      { name: NAME_REQUEST },
      { code: -32603, message: 'x' },
    ),
  );
  /** The specifications' answers with up to three fields replaced, removed or added. */
  const answer = fc.oneof(
    fc.jsonValue(),
    fc
      .tuple(
        fc.constantFrom<Record<string, unknown>>(
          SEP_CREATED,
          { resultType: 'complete', status: 'working', ...FLOW_TASK },
          { resultType: 'complete', status: 'input_required', ...FLOW_TASK, inputRequests: {} },
          { resultType: 'complete', status: 'completed', ...FLOW_TASK, result: { content: [] } },
          S25_TASK,
          { task: S25_TASK },
        ),
        fc.array(fc.tuple(fc.constantFrom(...FIELDS), value), { maxLength: 3 }),
      )
      .map(([base, edits]) => Object.assign({ ...base }, Object.fromEntries(edits))),
  );

  /** The oracle's view of an accepted task: what any client may rely on. */
  function isSoundTask(task: Record<string, unknown>, revision: TaskRevision): boolean {
    const { taskId, status, createdAt, lastUpdatedAt, ttlMs } = task;
    const positive = typeof ttlMs === 'number' && Number.isInteger(ttlMs) && ttlMs > 0;
    const ttlSound =
      ttlMs === null ||
      (revision === STATELESS ? positive : typeof ttlMs === 'number' && ttlMs >= 0);
    return (
      typeof taskId === 'string' &&
      taskId.length > 0 &&
      (TASK_STATUSES as readonly unknown[]).includes(status) &&
      Number.isFinite(Date.parse(String(createdAt))) &&
      Number.isFinite(Date.parse(String(lastUpdatedAt))) &&
      ttlSound
    );
  }

  /** The least of each outcome in 2,000 answers (the seeded run: 55/150/1972, 145/94/1985). */
  const FLOORS = {
    [STATELESS]: { created: 35, statuses: 100, refused: 1_500 },
    [SESSION]: { created: 95, statuses: 60, refused: 1_500 },
  };

  it.each([STATELESS, SESSION])('createdTaskOf and taskStatusOf on %s', (revision) => {
    const seen = { created: 0, statuses: 0, refused: 0 };
    fc.assert(
      fc.property(answer, (sent) => {
        for (const read of [createdTaskOf, taskStatusOf]) {
          try {
            const task = read(sent, revision, fuzzScope);
            if (task === undefined) continue;
            expect(isSoundTask({ ...task }, revision)).toBe(true);
            if (read === createdTaskOf) seen.created += 1;
            else seen.statuses += 1;
          } catch (error) {
            expect(error).toBeInstanceOf(ConnectionProtocolError);
            expect((error as Error).message).toMatch(/^Connection "fuzz" sent /);
            seen.refused += 1;
          }
        }
      }),
      fuzzParameters(2_000),
    );
    // Floors, so that no outcome is vacuous: each reader accepted tasks and refused most answers.
    expect(seen.created).toBeGreaterThanOrEqual(FLOORS[revision].created);
    expect(seen.statuses).toBeGreaterThanOrEqual(FLOORS[revision].statuses);
    expect(seen.refused).toBeGreaterThanOrEqual(FLOORS[revision].refused);
  });
});
