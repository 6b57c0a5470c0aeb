/**
 * The 2025-11-25 task server (`test/fixtures/task-server-2025.ts`, the MCP SDK v1's experimental
 * task runtime) driven with the SDK v1 `Client` (`client.experimental.tasks.callToolStream`): the
 * declared capabilities and task support, each tool's messages in order, the in-task elicitation
 * over `tasks/result`, progress, cancellation, and the recorded requests.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ResponseMessage } from '@modelcontextprotocol/sdk/shared/responseMessage.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type ElicitResult,
  type Progress,
  type Result,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTaskServer2025, type TaskServer2025 } from '../fixtures/task-server-2025.js';
import { leakedHandles } from '../support/loopback-server.js';

let server: TaskServer2025;
let client: Client;
/** What the client answers to `elicitation/create`, and the requests it got. */
let elicitAnswer: ElicitResult = { action: 'accept', content: { confirm: true } };
let elicited: unknown[] = [];

beforeEach(async () => {
  server = await startTaskServer2025();
  elicited = [];
  elicitAnswer = { action: 'accept', content: { confirm: true } };
  client = new Client(
    { name: 'selftest', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited.push(request.params);
    return elicitAnswer;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  await client.listTools();
});
afterEach(async () => {
  await client.close();
  await server.close();
});
afterAll(async () => {
  expect(await leakedHandles()).toEqual([]);
});

/** The stream's messages, as `type status` lines, and the final result or error. */
async function drive(
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (progress: Progress) => void,
): Promise<{
  lines: string[];
  last: ResponseMessage<Result> | undefined;
  taskId: string | undefined;
}> {
  const lines: string[] = [];
  let last: ResponseMessage<Result> | undefined;
  let taskId: string | undefined;
  const options = onprogress === undefined ? {} : { onprogress };
  for await (const message of client.experimental.tasks.callToolStream(
    { name, arguments: args },
    CallToolResultSchema,
    options,
  )) {
    last = message;
    if (message.type === 'taskCreated') taskId = message.task.taskId;
    lines.push(
      message.type === 'taskCreated' || message.type === 'taskStatus'
        ? `${message.type} ${message.task.status}`
        : message.type,
    );
  }
  return { lines, last, taskId };
}

/** The JSON-RPC requests of the tools/call's session after initialize, as `method` lines. */
function rpcLines(): string[] {
  return server.requests
    .filter((request) => request.httpMethod === 'POST')
    .map((request) =>
      request.kind === 'response' ? `response ${String(request.id)}` : request.method,
    );
}

describe('declarations', () => {
  it('declares tasks for tools/call, cancel and list, and each tool its task support', async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(
      Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport])),
    ).toEqual({
      required_compute: 'required',
      optional_compute: 'optional',
      failing_task: 'required',
      confirm_task: 'required',
      forever_task: 'required',
      progress_task: 'required',
    });
  });
});

describe('tasks', () => {
  it('runs required_compute: created, two working checks, then the result via tasks/result', async () => {
    const { lines, last, taskId } = await drive('required_compute', { label: 'pi' });
    expect(lines).toEqual([
      'taskCreated working',
      'taskStatus working',
      'taskStatus working',
      'taskStatus completed',
      'result',
    ]);
    expect(last).toMatchObject({
      type: 'result',
      result: { content: [{ type: 'text', text: 'computed pi' }] },
    });
    expect(server.tasks.get(taskId ?? '')?.gets).toHaveLength(3);
    expect(rpcLines()).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
      'tasks/get',
      'tasks/get',
      'tasks/get',
      'tasks/result',
    ]);
    const call = server.requests.find((request) => request.method === 'tools/call');
    expect(call?.params).toMatchObject({ name: 'required_compute', task: {} });
    expect(call?.sessionId).toBe(server.tasks.get(taskId ?? '')?.sessionId);
  });

  it('runs optional_compute as a task when asked and plainly otherwise', async () => {
    expect((await drive('optional_compute', { polls: 0 })).lines).toEqual([
      'taskCreated working',
      'taskStatus completed',
      'result',
    ]);
    const plain = await client.callTool({
      name: 'optional_compute',
      arguments: { label: 'plain' },
    });
    expect(plain.content).toEqual([{ type: 'text', text: 'computed plain' }]);
    const plainCall = server.requests.filter((request) => request.method === 'tools/call')[1];
    expect(plainCall?.params).not.toHaveProperty('task');
  });

  it('ends failing_task failed, which the SDK client reports as an error', async () => {
    const { lines, last, taskId } = await drive('failing_task');
    expect(lines).toEqual(['taskCreated working', 'taskStatus failed', 'error']);
    expect(last?.type === 'error' ? last.error.message : '').toContain('failed');
    expect(await server.statusOf(taskId ?? '')).toBe('failed');
  });

  it.each([
    [{ action: 'accept', content: { confirm: true } } as ElicitResult, 'deleted a.txt'],
    [{ action: 'decline' } as ElicitResult, 'kept a.txt'],
  ])(
    'asks confirm_task inside the task over tasks/result (%j), then ends with %s',
    async (answer, ending) => {
      elicitAnswer = answer;
      const { lines, last, taskId } = await drive('confirm_task', { filename: 'a.txt' });
      expect(lines).toEqual(['taskCreated working', 'taskStatus input_required', 'result']);
      expect(last).toMatchObject({
        type: 'result',
        result: { content: [{ type: 'text', text: ending }] },
      });
      expect(elicited).toEqual([
        {
          message: 'Delete a.txt?',
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          },
          _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
        },
      ]);
      expect(server.tasks.get(taskId ?? '')?.answers).toEqual([answer]);
      // The elicitation rode the tasks/result stream; the client's answer came back as a POST.
      expect(rpcLines().slice(3)).toEqual([
        'tools/call',
        'tasks/get',
        'tasks/result',
        'response 0',
      ]);
    },
  );

  it('reports progress_task 1/2 on the call and 2/2 over tasks/result', async () => {
    const progress: Progress[] = [];
    const { lines, taskId } = await drive('progress_task', {}, (report) => progress.push(report));
    expect(lines).toEqual([
      'taskCreated working',
      'taskStatus working',
      'taskStatus completed',
      'result',
    ]);
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'started' },
      {
        progress: 2,
        total: 2,
        message: 'finishing',
        _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
      },
    ]);
  });

  it('keeps forever_task working until tasks/cancel, which the server records', async () => {
    const stream = client.experimental.tasks.callToolStream({
      name: 'forever_task',
      arguments: {},
    });
    const first = await stream.next();
    const taskId = first.value?.type === 'taskCreated' ? first.value.task.taskId : '';
    expect((await stream.next()).value).toMatchObject({
      type: 'taskStatus',
      task: { status: 'working' },
    });
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({
      taskId,
      status: 'cancelled',
    });
    expect((await stream.next()).value).toMatchObject({
      type: 'taskStatus',
      task: { status: 'cancelled' },
    });
    expect((await stream.next()).value).toMatchObject({ type: 'error' });
    expect(server.tasks.get(taskId)).toMatchObject({ tool: 'forever_task', cancelled: true });
    expect(await server.statusOf(taskId)).toBe('cancelled');
    // A terminal task refuses a second cancel (S25: MUST -32602).
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('cancels confirm_task while its question waits: no answer asked of the client, status cancelled', async () => {
    const stream = client.experimental.tasks.callToolStream({
      name: 'confirm_task',
      arguments: { filename: 'a.txt' },
    });
    const first = await stream.next();
    const taskId = first.value?.type === 'taskCreated' ? first.value.task.taskId : '';
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({
      taskId,
      status: 'cancelled',
    });
    const rest: string[] = [];
    for await (const message of stream) {
      rest.push(message.type === 'taskStatus' ? `taskStatus ${message.task.status}` : message.type);
    }
    expect(rest).toEqual(['taskStatus cancelled', 'error']);
    expect(elicited).toEqual([]);
    expect(server.tasks.get(taskId)).toMatchObject({ cancelled: true, answers: [] });
    expect(await server.statusOf(taskId)).toBe('cancelled');
  });

  it('refuses a required tool called without params.task: -32601, as a tool error (the SDK v1 wraps it)', async () => {
    const bare = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': String(client.transport?.sessionId),
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 99,
        method: 'tools/call',
        params: { name: 'required_compute', arguments: {} },
      }),
    });
    expect(bare.status).toBe(200);
    const frame = (await bare.text()).split('\n').find((line) => line.startsWith('data: '));
    expect(JSON.parse(frame?.slice('data: '.length) ?? 'null')).toEqual({
      jsonrpc: '2.0',
      id: 99,
      result: {
        content: [
          {
            type: 'text',
            text: "MCP error -32601: Tool required_compute requires task augmentation (taskSupport: 'required')",
          },
        ],
        isError: true,
      },
    });
  });
});
