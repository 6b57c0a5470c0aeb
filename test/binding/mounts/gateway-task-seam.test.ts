/**
 * What the v2 MCP SDK server (`@modelcontextprotocol/server` 2.4) lets a host do with the tasks
 * extension (`io.modelcontextprotocol/tasks`, SEP-2663), the seam a gateway task relay would be
 * built on (decision 0049): pinned here against a real `McpServer` behind `createMcpHandler` on
 * 127.0.0.1, so an SDK release that moves any of it fails this file rather than the relay.
 *
 * - the extension is declared by the server's `capabilities.extensions` and advertised by
 *   `server/discover`;
 * - a `registerTool` handler may answer `resultType: "task"`: it reaches the client flat (the SDK
 *   adds `content: []`), except for a tool with an `outputSchema`, whose task answer the SDK turns
 *   into an `isError` result;
 * - `tasks/get`, `tasks/update` and `tasks/cancel` are served by handlers registered with a params
 *   schema (`server.server.setRequestHandler(method, { params }, handler)`); a JSON-RPC error a
 *   handler throws is answered as it is (`-32021` with HTTP 400 and its data, `-32602` with 200);
 * - `createMcpHandler` itself refuses a `tasks/*` request whose `Mcp-Name` is missing or is not its
 *   `params.taskId` (HTTP 400, `-32020`) before any handler runs;
 * - the SDK does not gate on the request's declaration: a `tools/call` without the extension gets
 *   the handler's task all the same, so a relay must read the declaration itself
 *   (`ctx.mcpReq.envelope`), and answer `-32021` on `tasks/*` itself;
 * - `tasks/result` and `tasks/list` stay `-32601`.
 */
import { createMcpHandler, McpServer as V2McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ServedWebHandler, serveWebHandler } from '../../fixtures/http-helpers.js';
import { postFramed } from '../../fixtures/task-server-2026-requests.js';
import { expectNoOpenSockets } from '../../support/leaks.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'seam', version: '1.0.0' } };
const AT = '2026-12-05T09:00:00.000Z';
/** The task every `tools/call` creates, flat, as SEP-2663 writes a `CreateTaskResult`. */
const CREATED = {
  resultType: 'task',
  taskId: 't-1',
  status: 'working',
  createdAt: AT,
  lastUpdatedAt: AT,
  ttlMs: 60_000,
  pollIntervalMs: 250,
};
const DONE = { content: [{ type: 'text', text: 'done' }] };

/** The `tasks/*` requests each handler received, in order: method and `params.taskId`. */
const received: string[] = [];
let served: ServedWebHandler;
let handler: ReturnType<typeof createMcpHandler>;

/** Whether a request's `_meta` client capabilities declare the extension. */
function declaresTasks(envelope: unknown): boolean {
  const capabilities = (envelope as Record<string, unknown> | undefined)?.[CAPABILITIES];
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[TASKS] !== undefined;
}

/** A JSON-RPC error a request handler throws; the SDK answers its code, message and data. */
function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

function taskServer(): V2McpServer {
  const server = new V2McpServer(
    { name: 'seam', version: '1.0.0' },
    { capabilities: { extensions: { [TASKS]: {} } } },
  );
  server.registerTool('job', { inputSchema: z.looseObject({}) }, async () => CREATED as never);
  server.registerTool(
    'job_with_output',
    { inputSchema: z.looseObject({}), outputSchema: z.looseObject({}) },
    async () => CREATED as never,
  );
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'] as const) {
    server.server.setRequestHandler(
      method,
      { params: z.looseObject({ taskId: z.string() }) },
      async (params, ctx) => {
        received.push(`${method} ${params.taskId}`);
        if (!declaresTasks(ctx.mcpReq.envelope)) {
          throw rpcError(-32021, 'Missing required client capability', {
            requiredCapabilities: { extensions: { [TASKS]: {} } },
          });
        }
        if (params.taskId !== 't-1') throw rpcError(-32602, 'Task not found');
        if (method !== 'tasks/get') return {};
        return { ...CREATED, resultType: 'complete', status: 'completed', result: DONE };
      },
    );
  }
  return server;
}

/** One 2026-07-28 request POSTed by hand: its HTTP status and JSON-RPC answer. */
async function post(
  method: string,
  params: Record<string, unknown>,
  options: { readonly declare?: boolean; readonly mcpName?: string | null } = {},
): Promise<{ readonly status: number; readonly body: Record<string, unknown> }> {
  const answer = await postFramed(`${served.origin}/mcp`, method, params, {
    ...(options.declare === undefined ? {} : { declare: options.declare }),
    ...(options.mcpName === undefined
      ? {}
      : { headers: { 'mcp-name': options.mcpName ?? undefined } }),
    clientInfo: { name: 'raw-2026-client', version: '1.0.0' },
  });
  const { jsonrpc: _version, id: _id, ...body } = answer.body as Record<string, unknown>;
  return { status: answer.status, body };
}

beforeAll(async () => {
  handler = createMcpHandler(taskServer, { legacy: 'reject' });
  served = await serveWebHandler(handler);
});

afterAll(async () => {
  await handler.close();
  await served.close();
  await expectNoOpenSockets();
});

describe('the v2 SDK server and the tasks extension', () => {
  it('advertises the extension the server declares in capabilities.extensions', async () => {
    const { body } = await post('server/discover', {});
    const capabilities = (body.result as { capabilities: Record<string, unknown> }).capabilities;
    expect(capabilities.extensions).toEqual({ [TASKS]: {} });
  });

  it("passes a tool handler's task answer through flat, with the content the SDK adds", async () => {
    expect(await post('tools/call', { name: 'job', arguments: {} })).toEqual({
      status: 200,
      body: { result: { ...CREATED, content: [], _meta: SERVER_INFO } },
    });
  });

  it('turns the task answer of a tool with an outputSchema into an isError result', async () => {
    const { body } = await post('tools/call', { name: 'job_with_output', arguments: {} });
    expect(body.result).toEqual({
      resultType: 'complete',
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Output validation error: Tool job_with_output has an output schema but no structured content was provided',
        },
      ],
      _meta: SERVER_INFO,
    });
  });

  it("leaves the declaration to the host: a request that does not declare it gets the handler's task", async () => {
    const { body } = await post('tools/call', { name: 'job', arguments: {} }, { declare: false });
    expect((body.result as Record<string, unknown>).resultType).toBe('task');
  });

  it('serves tasks/get, tasks/update and tasks/cancel through handlers registered with a params schema', async () => {
    received.length = 0;
    expect(await post('tasks/get', { taskId: 't-1' })).toEqual({
      status: 200,
      body: {
        result: {
          ...CREATED,
          resultType: 'complete',
          status: 'completed',
          result: DONE,
          _meta: SERVER_INFO,
        },
      },
    });
    const ack = { status: 200, body: { result: { resultType: 'complete', _meta: SERVER_INFO } } };
    expect(await post('tasks/update', { taskId: 't-1', inputResponses: {} })).toEqual(ack);
    expect(await post('tasks/cancel', { taskId: 't-1' })).toEqual(ack);
    expect(received).toEqual(['tasks/get t-1', 'tasks/update t-1', 'tasks/cancel t-1']);
  });

  it("answers a handler's -32021 with HTTP 400 and its data, and its -32602 with 200", async () => {
    received.length = 0;
    expect(await post('tasks/get', { taskId: 't-1' }, { declare: false })).toEqual({
      status: 400,
      body: {
        error: {
          code: -32021,
          message: 'Missing required client capability',
          data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
        },
      },
    });
    expect(await post('tasks/cancel', { taskId: 'unknown' })).toEqual({
      status: 200,
      body: { error: { code: -32602, message: 'Task not found' } },
    });
    expect(received).toEqual(['tasks/get t-1', 'tasks/cancel unknown']);
  });

  it('refuses a tasks/* request whose Mcp-Name is missing or another id (-32020) before any handler runs', async () => {
    received.length = 0;
    for (const mcpName of [null, 't-2']) {
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const { status, body } = await post(method, { taskId: 't-1' }, { mcpName });
        expect({ status, code: (body.error as { code: number }).code }).toEqual({
          status: 400,
          code: -32020,
        });
      }
    }
    expect(received).toEqual([]);
  });

  it('keeps tasks/result and tasks/list unknown (-32601)', async () => {
    for (const method of ['tasks/result', 'tasks/list']) {
      const { body } = await post(method, { taskId: 't-1' });
      expect(body).toEqual({ error: { code: -32601, message: 'Method not found' } });
    }
  });
});
