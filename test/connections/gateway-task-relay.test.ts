/**
 * The gateway's task relay (decision 0050): a v2-line gateway in front of our 2026 task server,
 * with MCP 2026-07-28 downstreams that declare the tasks extension (`io.modelcontextprotocol/tasks`).
 * The gateway advertises the extension, answers a call its upstream runs as a task with the
 * upstream's task under an id of its own (`gt1.…`, sealed), and forwards `tasks/get`,
 * `tasks/update` and `tasks/cancel` upstream with the upstream's id, relaying each answer as the
 * upstream wrote it but for the id. A tampered id, another client's id and a request that does not
 * declare the extension never reach the upstream. A downstream that does not declare keeps the
 * result of the task the gateway drives (`gateway-tasks.test.ts`).
 */
import { createMcpHandler, McpServer as V2McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayRequestState, mountMcp } from '../../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../../src/connections/index.js';
import { type ServedWebHandler, serveWebHandler } from '../fixtures/http-helpers.js';
import type { V2Gateway } from '../fixtures/revision-gateways.js';
import { startTaskGateway2026, type TaskGateway2026 } from '../fixtures/task-gateway-2026.js';
import type { TaskServer2026 } from '../fixtures/task-server-2026.js';
import { postFramed } from '../fixtures/task-server-2026-requests.js';
import { expectNoOpenSockets } from '../support/leaks.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const GATEWAY_META = {
  'io.modelcontextprotocol/serverInfo': { name: 'v2-gateway', version: '1.0.0' },
};

let stack: TaskGateway2026;
let upstream: TaskServer2026;
let gateway: V2Gateway;

beforeAll(async () => {
  stack = await startTaskGateway2026();
  ({ upstream, gateway } = stack);
});
afterAll(async () => {
  await stack.close();
  await expectNoOpenSockets();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

/** The upstream's requests: method and `Mcp-Name`, in order. */
const upstreamLines = () =>
  upstream.requests.map((request) => `${request.method} ${request.headers.mcpName ?? ''}`.trim());

interface Answer {
  readonly status: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** One 2026-07-28 request to `url`, declaring the extension unless `declare` is false. */
async function post(
  method: string,
  params: Readonly<Record<string, unknown>>,
  options: {
    readonly declare?: boolean;
    readonly capabilities?: Readonly<Record<string, unknown>>;
    readonly url?: string;
    readonly headers?: Readonly<Record<string, string>>;
  } = {},
): Promise<Answer> {
  const answer = await postFramed(options.url ?? gateway.url, method, params, {
    ...(options.declare === undefined ? {} : { declare: options.declare }),
    ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    clientInfo: { name: 'declaring-client', version: '1.0.0' },
  });
  const body = answer.body as { result?: Record<string, unknown>; error?: Answer['error'] };
  return {
    status: answer.status,
    ...(body.result === undefined ? {} : { result: body.result }),
    ...(body.error === undefined ? {} : { error: body.error }),
  };
}

/** The upstream's id of the one task the upstream holds for `tool` that was created last. */
function upstreamTaskOf(tool: string): string {
  const ids = [...upstream.tasks.entries()].filter(([, task]) => task.tool === tool);
  const last = ids.at(-1);
  if (last === undefined) throw new Error(`no upstream task for ${tool}`);
  return last[0];
}

/** Calls `tool` and returns the gateway's task answer. */
async function createTask(
  tool: string,
  args: Readonly<Record<string, unknown>> = {},
  capabilities: Readonly<Record<string, unknown>> = {},
): Promise<Record<string, unknown>> {
  const answer = await post('tools/call', { name: tool, arguments: args }, { capabilities });
  expect(answer.status).toBe(200);
  return answer.result ?? {};
}

describe('the gateway relays an upstream task to a downstream that declares the extension', () => {
  it('advertises the extension', async () => {
    const { result } = await post('server/discover', {});
    const capabilities = (result as { capabilities: Record<string, unknown> }).capabilities;
    expect(capabilities.extensions).toEqual({ [TASKS]: {} });
  });

  it("answers the call with the upstream's task under a sealed id, then relays each poll to the result", async () => {
    const created = await createTask('slow_compute', { polls: 1, label: 'r' });
    const upstreamId = upstreamTaskOf('slow_compute');
    const upstreamTask = upstream.tasks.get(upstreamId);
    expect(upstreamTask?.status).toBe('working');
    const sealed = created.taskId as string;
    expect(sealed).toMatch(/^gt1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(upstreamId);
    const { taskId: _sealed, createdAt, lastUpdatedAt, ...rest } = created;
    expect(rest).toEqual({
      resultType: 'task',
      status: 'working',
      ttlMs: 60_000,
      pollIntervalMs: 250,
      content: [],
      _meta: GATEWAY_META,
    });
    expect(typeof createdAt).toBe('string');
    expect(lastUpdatedAt).toBe(createdAt);

    const first = await post('tasks/get', { taskId: sealed });
    expect(first).toEqual({
      status: 200,
      result: {
        resultType: 'complete',
        taskId: sealed,
        status: 'working',
        createdAt,
        lastUpdatedAt,
        ttlMs: 60_000,
        pollIntervalMs: 250,
        _meta: GATEWAY_META,
      },
    });
    const second = await post('tasks/get', { taskId: sealed });
    expect(second.result).toMatchObject({
      resultType: 'complete',
      taskId: sealed,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'computed r' }] },
    });
    expect(upstreamLines()).toEqual([
      'tools/call slow_compute',
      `tasks/get ${upstreamId}`,
      `tasks/get ${upstreamId}`,
    ]);
    // Every upstream request declared the extension.
    expect(upstream.requests.map((request) => request.declaresTasks)).toEqual([true, true, true]);
  });

  it("relays a completed task's isError result and a failed task's JSON-RPC error as written", async () => {
    const failing = await createTask('failing_job');
    const completed = await post('tasks/get', { taskId: failing.taskId as string });
    expect(completed.result).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'the job failed' }], isError: true },
    });
    const crashed = await createTask('protocol_error_job');
    const failed = await post('tasks/get', { taskId: crashed.taskId as string });
    expect(failed.result).toMatchObject({
      status: 'failed',
      statusMessage: 'job crashed',
      error: { code: -32603, message: 'job crashed', data: { step: 3 } },
    });
  });

  it('relays an input round: the questions by their keys, the answers by tasks/update, then the result', async () => {
    const created = await createTask('confirm_delete', { filename: 'r.txt' }, { elicitation: {} });
    const sealed = created.taskId as string;
    const asking = await post('tasks/get', { taskId: sealed });
    expect(asking.result).toMatchObject({ status: 'input_required' });
    const inputRequests = (asking.result as { inputRequests: Record<string, unknown> })
      .inputRequests;
    expect(Object.keys(inputRequests)).toEqual(['confirm']);
    expect(inputRequests.confirm).toMatchObject({ method: 'elicitation/create' });
    const answers = { confirm: { action: 'accept', content: { confirm: true } } };
    const ack = await post('tasks/update', { taskId: sealed, inputResponses: answers });
    expect(ack).toEqual({ status: 200, result: { resultType: 'complete', _meta: GATEWAY_META } });
    expect(upstream.tasks.get(upstreamTaskOf('confirm_delete'))?.updates).toEqual([answers]);
    await post('tasks/get', { taskId: sealed });
    const done = await post('tasks/get', { taskId: sealed });
    expect(done.result).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'deleted r.txt' }] },
    });
    const id = upstreamTaskOf('confirm_delete');
    expect(upstreamLines()).toEqual([
      'tools/call confirm_delete',
      `tasks/get ${id}`,
      `tasks/update ${id}`,
      `tasks/get ${id}`,
      `tasks/get ${id}`,
    ]);
  });

  it('forwards tasks/cancel: the upstream task is cancelled and the acknowledgement relayed', async () => {
    const created = await createTask('forever_job');
    const ack = await post('tasks/cancel', { taskId: created.taskId as string });
    expect(ack).toEqual({ status: 200, result: { resultType: 'complete', _meta: GATEWAY_META } });
    const id = upstreamTaskOf('forever_job');
    expect(upstream.tasks.get(id)).toMatchObject({ cancelled: true, status: 'cancelled' });
    expect(upstreamLines()).toEqual(['tools/call forever_job', `tasks/cancel ${id}`]);
  });

  it("relays the upstream's -32602 for a task it no longer knows", async () => {
    const created = await createTask('vanishing_job');
    const sealed = created.taskId as string;
    expect((await post('tasks/get', { taskId: sealed })).result).toMatchObject({
      status: 'working',
    });
    expect(await post('tasks/get', { taskId: sealed })).toEqual({
      status: 200,
      error: { code: -32602, message: 'Task not found' },
    });
  });

  it("answers -32603 with the safe envelope when the upstream's answer breaks the schema", async () => {
    const created = await createTask('malformed_job', { kind: 'get' });
    const answer = await post('tasks/get', { taskId: created.taskId as string });
    expect(answer).toEqual({
      status: 200,
      error: {
        code: -32603,
        message: 'The upstream task request failed',
        data: expect.objectContaining({ error: 'CONNECTION_PROTOCOL_ERROR' }),
      },
    });
    // The upstream's words and its id stay in the process.
    expect(JSON.stringify(answer)).not.toContain(upstreamTaskOf('malformed_job'));
  });

  it('refuses a tampered or unknown id with -32602, and never asks the upstream', async () => {
    const created = await createTask('forever_job');
    const sealed = created.taskId as string;
    upstream.requests.length = 0;
    const [version, body, tag] = sealed.split('.');
    const flipped = `${tag?.slice(0, -2)}${tag?.endsWith('AA') ? 'AB' : 'AA'}`;
    for (const taskId of [
      `${version}.${body}.${flipped}`,
      upstreamTaskOf('forever_job'),
      'gt1.e30.AAAA',
      `${sealed}.x`,
    ]) {
      expect({ taskId, answer: await post('tasks/get', { taskId }) }).toEqual({
        taskId,
        answer: { status: 200, error: { code: -32602, message: 'Task not found' } },
      });
    }
    expect(upstreamLines()).toEqual([]);
    await post('tasks/cancel', { taskId: sealed });
  });

  it('answers -32021 to a tasks/* request that does not declare the extension', async () => {
    const created = await createTask('forever_job');
    upstream.requests.length = 0;
    for (const method of ['tasks/get', 'tasks/cancel']) {
      expect(await post(method, { taskId: created.taskId as string }, { declare: false })).toEqual({
        status: 400,
        error: {
          code: -32021,
          message: 'Missing required client capability',
          data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
        },
      });
    }
    expect(upstreamLines()).toEqual([]);
    await post('tasks/cancel', { taskId: created.taskId as string });
  });

  it('drives the task for a downstream that does not declare, and answers with its result', async () => {
    const answer = await post(
      'tools/call',
      { name: 'slow_compute', arguments: { polls: 1, label: 'p' } },
      { declare: false },
    );
    expect(answer.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'computed p' }],
    });
    expect(answer.result?.taskId).toBeUndefined();
    // The gateway's own call to its upstream declares the extension: the upstream runs a task.
    expect(upstream.requests.map((request) => request.method)).toEqual([
      'tools/call',
      'tasks/get',
      'tasks/get',
    ]);
  });
});

describe('with authenticated downstreams, a task id is only its own client’s', () => {
  let served: ServedWebHandler;
  let handler: ReturnType<typeof createMcpHandler>;
  /** The runs the mount's observer saw: `operation from → to`. */
  const observed: string[] = [];

  beforeAll(async () => {
    const tools = await mountConnections(
      [
        defineMcpClientConnection({
          name: 'jobs',
          transport: { url: upstream.url, protocolVersion: '2026-07-28' },
        }),
      ],
      {
        onSkippedTool: () => {},
        observe: (record) =>
          observed.push(`${record.operation ?? ''} ${record.from} -> ${record.to}`),
      },
    );
    const requestState = createGatewayRequestState();
    handler = createMcpHandler(
      () => {
        const server = new V2McpServer({ name: 'authed', version: '1.0.0' }, { requestState });
        mountMcp(server, tools, { requestState });
        return server;
      },
      { legacy: 'reject' },
    );
    // The host authenticates each request; here the client names itself in a header.
    served = await serveWebHandler({
      fetch: (request: Request) =>
        handler.fetch(request, {
          authInfo: {
            token: 't',
            clientId: request.headers.get('x-client') ?? 'nobody',
            scopes: [],
          },
        }),
    });
  });
  afterAll(async () => {
    await handler.close();
    await served.close();
  });

  it("refuses another client's id with -32602, and serves the owner's", async () => {
    const url = `${served.origin}/mcp`;
    const created = await post(
      'tools/call',
      { name: 'forever_job', arguments: {} },
      { url, headers: { 'x-client': 'alice' } },
    );
    const sealed = created.result?.taskId as string;
    upstream.requests.length = 0;
    expect(
      await post('tasks/get', { taskId: sealed }, { url, headers: { 'x-client': 'bob' } }),
    ).toEqual({ status: 200, error: { code: -32602, message: 'Task not found' } });
    expect(upstreamLines()).toEqual([]);
    observed.length = 0;
    const own = await post(
      'tasks/cancel',
      { taskId: sealed },
      { url, headers: { 'x-client': 'alice' } },
    );
    expect(own.status).toBe(200);
    // The forwarded request is one observed run of the connection's machine, start to end.
    expect(observed).toEqual([
      'tasks/cancel  -> stateless.requesting.waiting',
      'tasks/cancel stateless.requesting.waiting -> closed',
    ]);
    expect(upstreamLines()).toEqual([`tasks/cancel ${upstreamTaskOf('forever_job')}`]);
  });
});
