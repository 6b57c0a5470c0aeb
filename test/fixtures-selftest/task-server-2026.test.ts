/**
 * The 2026-07-28 task server (`test/fixtures/task-server-2026.ts`) driven with raw `fetch`: each
 * tool's scenario status by status, and the acks. The good answers pass our own readers
 * (`src/wire/mcp/tasks.ts`), the malformed ones are refused by them. The refusals and the record
 * are in `task-server-2026-refusals.test.ts`.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OperationScope } from '../../src/wire/core/operation.js';
import { ConnectionProtocolError } from '../../src/wire/errors/errors.js';
import { STATELESS_REVISION } from '../../src/wire/index.js';
import { createdTaskOf, taskAckOf, taskStatusOf } from '../../src/wire/mcp/tasks.js';
import {
  startTaskServer2026,
  TASKS_EXTENSION_ID,
  type TaskServer2026,
} from '../fixtures/task-server-2026.js';
import {
  type FramedRequestOptions,
  framedResult,
  postFramed,
} from '../fixtures/task-server-2026-requests.js';
import { leakedHandles } from '../support/loopback-server.js';

const SCOPE: OperationScope = { connectionName: 'tasks', operation: 'tools/call', phase: 'call' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: TaskServer2026;
beforeEach(async () => {
  server = await startTaskServer2026();
});
afterEach(async () => {
  await server.close();
});
afterAll(async () => {
  expect(await leakedHandles()).toEqual([]);
});

const rpc = (method: string, params: Record<string, unknown>, options?: FramedRequestOptions) =>
  postFramed(server.url, method, params, options);
const result = (method: string, params: Record<string, unknown>) =>
  framedResult(server.url, method, params);

/** Calls a tool that must create a task, checks the creation with our reader, returns its id. */
async function create(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const created = await result('tools/call', { name, arguments: args });
  const task = createdTaskOf(created, STATELESS_REVISION, SCOPE);
  if (task === undefined) throw new Error(`${name} made no task`);
  return task.taskId;
}

const get = (taskId: string) => result('tasks/get', { taskId });
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** The statuses of `count` gets, each read by our reader. */
async function statuses(taskId: string, count: number): Promise<string[]> {
  const seen: string[] = [];
  for (let poll = 0; poll < count; poll++) {
    seen.push(taskStatusOf(await get(taskId), STATELESS_REVISION, SCOPE).status);
  }
  return seen;
}

describe('discovery', () => {
  it('advertises the tasks extension and lists every tool', async () => {
    const discovered = await result('server/discover', {});
    expect(discovered.capabilities).toEqual({
      tools: {},
      extensions: { [TASKS_EXTENSION_ID]: {} },
    });
    expect(discovered.supportedVersions).toEqual(['2026-07-28']);
    const listed = await result('tools/list', {});
    expect(listed.resultType).toBe('complete');
    expect((listed.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      'greet',
      'slow_compute',
      'failing_job',
      'protocol_error_job',
      'confirm_delete',
      'multi_input',
      'server_cancelled_job',
      'vanishing_job',
      'forever_job',
      'changing_interval_job',
      'malformed_job',
      'required_task_job',
      'test_tool_with_task',
    ]);
  });
});

describe('tasks that end', () => {
  it('answers greet plainly, extension declared or not', async () => {
    for (const declare of [true, false]) {
      const answer = await rpc(
        'tools/call',
        { name: 'greet', arguments: { name: 'Ada' } },
        { declare },
      );
      expect(answer).toEqual({
        status: 200,
        body: {
          jsonrpc: '2.0',
          id: expect.any(Number),
          result: { resultType: 'complete', ...text('Hello, Ada!') },
        },
      });
    }
    expect(server.tasks.size).toBe(0);
  });

  it('creates slow_compute as a flat task, working for its polls, then completed', async () => {
    const created = await result('tools/call', {
      name: 'slow_compute',
      arguments: { label: 'pi' },
    });
    expect(created).toEqual({
      resultType: 'task',
      taskId: expect.stringMatching(UUID),
      status: 'working',
      createdAt: expect.stringMatching(ISO),
      lastUpdatedAt: created.createdAt,
      ttlMs: 60_000,
      pollIntervalMs: 250,
    });
    const taskId = created.taskId as string;
    expect(await statuses(taskId, 2)).toEqual(['working', 'working']);
    const done = await get(taskId);
    expect(done).toEqual({
      ...created,
      resultType: 'complete',
      status: 'completed',
      lastUpdatedAt: expect.stringMatching(ISO),
      result: text('computed pi'),
    });
    expect(taskStatusOf(done, STATELESS_REVISION, SCOPE).result).toEqual(text('computed pi'));
    expect(server.tasks.get(taskId)).toMatchObject({
      tool: 'slow_compute',
      status: 'completed',
      cancelled: false,
    });
    expect(server.tasks.get(taskId)?.gets).toHaveLength(3);
  });

  it('takes slow_compute settings from its arguments', async () => {
    const created = await result('tools/call', {
      name: 'slow_compute',
      arguments: { polls: 0, pollIntervalMs: 1_000, ttlMs: null },
    });
    expect(created).toMatchObject({ ttlMs: null, pollIntervalMs: 1_000 });
    expect(await statuses(created.taskId as string, 1)).toEqual(['completed']);
  });

  it('runs slow_compute plainly for a client without the extension', async () => {
    const answer = await rpc(
      'tools/call',
      { name: 'slow_compute', arguments: {} },
      { declare: false },
    );
    expect(answer.body.result).toEqual({ resultType: 'complete', ...text('computed x') });
    expect(server.tasks.size).toBe(0);
  });

  it('completes failing_job with a tool error kept as isError', async () => {
    const done = taskStatusOf(await get(await create('failing_job')), STATELESS_REVISION, SCOPE);
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ ...text('the job failed'), isError: true });
  });

  it('fails protocol_error_job with the JSON-RPC error inlined', async () => {
    const failed = await get(await create('protocol_error_job'));
    expect(failed).toMatchObject({
      status: 'failed',
      statusMessage: 'job crashed',
      error: { code: -32603, message: 'job crashed', data: { step: 3 } },
    });
    expect(failed).not.toHaveProperty('result');
    expect(taskStatusOf(failed, STATELESS_REVISION, SCOPE).error).toEqual({
      code: -32603,
      message: 'job crashed',
      data: { step: 3 },
    });
  });

  it('cancels server_cancelled_job on its second poll', async () => {
    expect(await statuses(await create('server_cancelled_job'), 3)).toEqual([
      'working',
      'cancelled',
      'cancelled',
    ]);
  });

  it('changes the poll interval from 300 to 600 ms and completes on the third get', async () => {
    const created = await result('tools/call', { name: 'changing_interval_job', arguments: {} });
    expect(created.pollIntervalMs).toBe(300);
    const taskId = created.taskId as string;
    const seen: [unknown, unknown][] = [];
    for (let poll = 0; poll < 3; poll++) {
      const task = await get(taskId);
      seen.push([task.status, task.pollIntervalMs]);
    }
    expect(seen).toEqual([
      ['working', 600],
      ['working', 600],
      ['completed', 600],
    ]);
    expect(server.tasks.get(taskId)?.gets).toHaveLength(3);
  });

  it('needs the extension for required_task_job, then runs it as a task', async () => {
    const refused = await rpc(
      'tools/call',
      { name: 'required_task_job', arguments: {} },
      { declare: false },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: -32021,
      message: 'Missing required client capability',
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
    });
    expect(await statuses(await create('required_task_job'), 1)).toEqual(['completed']);
  });

  it('gathers a name in an MRTR round before test_tool_with_task becomes a task', async () => {
    const round = await result('tools/call', { name: 'test_tool_with_task', arguments: {} });
    expect(round).toMatchObject({ resultType: 'input_required', requestState: 'asked:user_name' });
    expect(round).not.toHaveProperty('taskId');
    const answered = await result('tools/call', {
      name: 'test_tool_with_task',
      arguments: {},
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState: 'asked:user_name',
    });
    expect(answered).toMatchObject({ resultType: 'task', status: 'working' });
    expect(answered).not.toHaveProperty('requestState');
    const done = await get(answered.taskId as string);
    expect(done.result).toEqual(text('Hello, Alice!'));
  });
});

const confirmRequest = (filename: string) => ({
  method: 'elicitation/create',
  params: {
    message: `Delete ${filename}?`,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean' } },
      required: ['confirm'],
    },
  },
});

describe('input inside a task', () => {
  it.each([
    [{ action: 'accept', content: { confirm: true } }, 'deleted a.txt'],
    [{ action: 'accept', content: { confirm: false } }, 'kept a.txt'],
    [{ action: 'decline' }, 'kept a.txt'],
  ])(
    'asks confirm_delete until tasks/update answers %j, then ends with %s',
    async (answer, ending) => {
      const taskId = await create('confirm_delete', { filename: 'a.txt' });
      const asked = await get(taskId);
      expect(asked).toMatchObject({
        status: 'input_required',
        inputRequests: { confirm: confirmRequest('a.txt') },
      });
      expect(taskStatusOf(asked, STATELESS_REVISION, SCOPE).inputRequests).toEqual({
        confirm: confirmRequest('a.txt'),
      });
      expect(await statuses(taskId, 1)).toEqual(['input_required']);
      const ack = await result('tasks/update', { taskId, inputResponses: { confirm: answer } });
      expect(ack).toEqual({ resultType: 'complete' });
      taskAckOf(ack, SCOPE);
      expect(await statuses(taskId, 1)).toEqual(['working']);
      const done = await get(taskId);
      expect(done).toMatchObject({ status: 'completed', result: text(ending) });
      expect(done).not.toHaveProperty('inputRequests');
      expect(server.tasks.get(taskId)?.updates).toEqual([{ confirm: answer }]);
    },
  );

  it('keeps multi_input asking for the key a partial update left', async () => {
    const taskId = await create('multi_input');
    const both = await get(taskId);
    expect(Object.keys(both.inputRequests as object)).toEqual(['a', 'b']);
    await result('tasks/update', {
      taskId,
      inputResponses: { a: { action: 'accept', content: { value: '1' } } },
    });
    const left = await get(taskId);
    expect(left.status).toBe('input_required');
    expect(Object.keys(left.inputRequests as object)).toEqual(['b']);
    // An already answered key is ignored (SEP: keys are never reused).
    await result('tasks/update', {
      taskId,
      inputResponses: {
        a: { action: 'accept', content: { value: 'again' } },
        b: { action: 'accept', content: { value: '2' } },
      },
    });
    expect(await statuses(taskId, 1)).toEqual(['working']);
    expect((await get(taskId)).result).toEqual(text('a=1 b=2'));
  });
});

describe('cancellation and loss', () => {
  it('keeps forever_job working until tasks/cancel, then answers cancelled', async () => {
    const created = await result('tools/call', {
      name: 'forever_job',
      arguments: { pollIntervalMs: 1_000 },
    });
    expect(created).toMatchObject({ ttlMs: null, pollIntervalMs: 1_000 });
    const taskId = created.taskId as string;
    expect(await statuses(taskId, 4)).toEqual(['working', 'working', 'working', 'working']);
    const ack = await result('tasks/cancel', { taskId });
    expect(ack).toEqual({ resultType: 'complete' });
    expect(await statuses(taskId, 2)).toEqual(['cancelled', 'cancelled']);
    expect(server.tasks.get(taskId)).toMatchObject({ status: 'cancelled', cancelled: true });
  });

  it('gives forever_job the ttlMs it is asked for', async () => {
    const created = await result('tools/call', {
      name: 'forever_job',
      arguments: { ttlMs: 5_000 },
    });
    expect(created).toMatchObject({ ttlMs: 5_000, pollIntervalMs: 250 });
  });

  it('acknowledges a cancel of a terminal task and leaves its status', async () => {
    const taskId = await create('slow_compute', { polls: 0 });
    expect(await statuses(taskId, 1)).toEqual(['completed']);
    expect(await result('tasks/cancel', { taskId })).toEqual({ resultType: 'complete' });
    expect(await statuses(taskId, 1)).toEqual(['completed']);
    expect(server.tasks.get(taskId)).toMatchObject({ status: 'completed', cancelled: true });
  });

  it('forgets vanishing_job on its second poll: -32602 from then on', async () => {
    const taskId = await create('vanishing_job');
    expect(await statuses(taskId, 1)).toEqual(['working']);
    const notFound = {
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: expect.any(Number),
        error: { code: -32602, message: 'Task not found' },
      },
    };
    expect(await rpc('tasks/get', { taskId })).toEqual(notFound);
    expect(await rpc('tasks/get', { taskId })).toEqual(notFound);
    expect(await rpc('tasks/cancel', { taskId })).toEqual(notFound);
    expect(server.tasks.get(taskId)).toMatchObject({ vanished: true, cancelled: false });
  });
});

describe('malformed answers, refused by our readers', () => {
  it('carries a result on the creation of malformed_job {kind: create}', async () => {
    const created = await result('tools/call', {
      name: 'malformed_job',
      arguments: { kind: 'create' },
    });
    expect(created).toMatchObject({ resultType: 'task', result: text('early') });
    expect(() => createdTaskOf(created, STATELESS_REVISION, SCOPE)).toThrow(
      ConnectionProtocolError,
    );
  });

  it.each([
    ['get', { resultType: 'task', status: 'working' }],
    ['status', { resultType: 'complete', status: 'paused' }],
  ])('answers tasks/get of malformed_job {kind: %s} outside the schema', async (kind, shape) => {
    const answer = await get(await create('malformed_job', { kind }));
    expect(answer).toMatchObject(shape);
    expect(() => taskStatusOf(answer, STATELESS_REVISION, SCOPE)).toThrow(ConnectionProtocolError);
  });
});
