/**
 * What the 2026-07-28 task server (`test/fixtures/task-server-2026.ts`) refuses, with the code
 * and HTTP status of each refusal (a missing extension, routing headers that disagree with the
 * body, an unknown task, the removed methods, a 2025 client), and what it records of each POST.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTaskServer2026, type TaskServer2026 } from '../fixtures/task-server-2026.js';
import {
  type FramedRequestOptions,
  framedResult,
  postFramed,
} from '../fixtures/task-server-2026-requests.js';
import { leakedHandles } from '../support/loopback-server.js';

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

/** Calls a tool that creates a task and returns its id. */
async function create(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const created = await framedResult(server.url, 'tools/call', { name, arguments: args });
  return created.taskId as string;
}

describe('refusals', () => {
  const error = (status: number, code: number) => ({
    status,
    body: { jsonrpc: '2.0', id: expect.any(Number), error: expect.objectContaining({ code }) },
  });

  it.each(['tasks/get', 'tasks/update', 'tasks/cancel'])(
    'refuses %s without the extension: 400, -32021',
    async (method) => {
      const taskId = await create('forever_job');
      expect(await rpc(method, { taskId, inputResponses: {} }, { declare: false })).toEqual(
        error(400, -32021),
      );
    },
  );

  it.each([
    ['a missing Mcp-Name', { 'mcp-name': undefined }],
    ['another task in Mcp-Name', { 'mcp-name': 'e0c1a0d2-0000-4000-8000-000000000000' }],
    ['a missing Mcp-Method', { 'mcp-method': undefined }],
    ['another method in Mcp-Method', { 'mcp-method': 'tasks/cancel' }],
    ['another MCP-Protocol-Version', { 'mcp-protocol-version': '2025-11-25' }],
  ])('refuses tasks/get with %s: 400, -32020', async (_case, headers) => {
    const taskId = await create('forever_job');
    expect(await rpc('tasks/get', { taskId }, { headers })).toEqual(error(400, -32020));
    expect(server.tasks.get(taskId)?.gets).toEqual([]);
  });

  it('takes an Mcp-Name in the base64 sentinel', async () => {
    const taskId = await create('forever_job');
    const encoded = `=?base64?${Buffer.from(taskId).toString('base64')}?=`;
    expect((await rpc('tasks/get', { taskId }, { headers: { 'mcp-name': encoded } })).status).toBe(
      200,
    );
  });

  it('answers an unknown task id with -32602 (HTTP 200) and the removed methods with -32601', async () => {
    const taskId = 'not-a-task';
    expect(await rpc('tasks/get', { taskId })).toEqual(error(200, -32602));
    expect(await rpc('tasks/update', { taskId, inputResponses: {} })).toEqual(error(200, -32602));
    expect(await rpc('tasks/result', { taskId })).toEqual(error(200, -32601));
    expect(await rpc('tasks/list', {})).toEqual(error(200, -32601));
  });

  it('refuses a 2025 initialize with -32022, a GET with 405, and takes a notification with 202', async () => {
    const initialize = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25' },
      }),
    });
    expect(initialize.status).toBe(400);
    expect(await initialize.json()).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } },
    });
    expect((await fetch(server.url)).status).toBe(405);
    const notification = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }),
    });
    expect(notification.status).toBe(202);
  });
});

describe('the record', () => {
  it('records each POST with its method, id, framing headers, declaration and status', async () => {
    const taskId = await create('slow_compute', { polls: 0 });
    await framedResult(server.url, 'tasks/get', { taskId });
    await rpc('tasks/get', { taskId }, { declare: false });
    const seen = server.requests.map(({ method, id, headers, declaresTasks, status }) => ({
      method,
      id,
      headers,
      declaresTasks,
      status,
    }));
    const version = { protocolVersion: '2026-07-28' };
    expect(seen).toEqual([
      {
        method: 'tools/call',
        id: expect.any(Number),
        headers: { ...version, mcpMethod: 'tools/call', mcpName: 'slow_compute' },
        declaresTasks: true,
        status: 200,
      },
      {
        method: 'tasks/get',
        id: expect.any(Number),
        headers: { ...version, mcpMethod: 'tasks/get', mcpName: taskId },
        declaresTasks: true,
        status: 200,
      },
      {
        method: 'tasks/get',
        id: expect.any(Number),
        headers: { ...version, mcpMethod: 'tasks/get', mcpName: taskId },
        declaresTasks: false,
        status: 400,
      },
    ]);
    expect(server.requests[0]?.params).toMatchObject({
      name: 'slow_compute',
      arguments: { polls: 0 },
    });
  });
});
