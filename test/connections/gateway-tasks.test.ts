/**
 * A gateway in front of a server that runs calls as MCP tasks (our 2026 task server), with
 * downstream clients that do not declare the tasks extension (neither SDK line does): the gateway
 * drives each task to its end and answers with the tool's result. In-task questions reach a 2025
 * downstream session as server requests; a 2026 downstream client answers questions only by a
 * retry, so the gateway answers it `input_required` with the task sealed in its state, and the
 * retry's answers go to that task (`tasks/update`), which then runs to its result (decision 0051).
 */

import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { V2Gateway } from '../fixtures/revision-gateways.js';
import { startTaskGateway2026, type TaskGateway2026 } from '../fixtures/task-gateway-2026.js';
import type { TaskServer2026 } from '../fixtures/task-server-2026.js';

let stack: TaskGateway2026;
let upstream: TaskServer2026;
let gateway: V2Gateway;
const INFO = { name: 'downstream', version: '1.0.0' };

beforeAll(async () => {
  stack = await startTaskGateway2026();
  ({ upstream, gateway } = stack);
});
afterAll(async () => {
  await stack.close();
});
let tasksBefore = 0;
beforeEach(() => {
  upstream.requests.length = 0;
  tasksBefore = upstream.tasks.size;
});

/** The upstream's requests: `method` (the task's requests marked as such). */
const upstreamMethods = () => upstream.requests.map((request) => request.method);

async function v1Session() {
  const client = new V1Client(INFO, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  const transport = new V1Transport(new URL(gateway.url));
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await transport.terminateSession();
      await client.close();
    },
  };
}

async function v2Stateless() {
  const client = new V2Client(INFO, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  });
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  await client.connect(new V2Transport(new URL(gateway.url)));
  return { client, close: () => client.close() };
}

describe('a gateway in front of a task server', () => {
  it('answers a 2026 client that does not declare tasks with the result of the task it drove', async () => {
    const { client, close } = await v2Stateless();
    const result = await client.callTool({
      name: 'slow_compute',
      arguments: { polls: 1, label: 'g' },
    });
    await close();
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'computed g' }] });
    expect(result).not.toHaveProperty('resultType', 'task');
    expect(upstreamMethods()).toEqual(['tools/call', 'tasks/get', 'tasks/get']);
  });

  it("relays the task's question to a 2025 session as a server request, then answers with the result", async () => {
    const { client, close } = await v1Session();
    const result = await client.callTool({
      name: 'confirm_delete',
      arguments: { filename: 'g.txt' },
    });
    await close();
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'deleted g.txt' }] });
    expect(upstreamMethods()).toEqual([
      'tools/call',
      'tasks/get',
      'tasks/update',
      'tasks/get',
      'tasks/get',
    ]);
  });

  it("relays the task's question to a 2026 client as input_required, and its retry's answer to the same task", async () => {
    const { client, close } = await v2Stateless();
    const result = await client.callTool({
      name: 'confirm_delete',
      arguments: { filename: 'h.txt' },
    });
    await close();
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'deleted h.txt' }] });
    expect(result).not.toHaveProperty('isError', true);
    // One task: the retry resumes it (tasks/update) instead of calling the tool again.
    expect(upstream.tasks.size).toBe(tasksBefore + 1);
    const task = [...upstream.tasks.values()].at(-1);
    expect(task?.updates).toEqual([{ confirm: { action: 'accept', content: { confirm: true } } }]);
    expect(task?.cancelled).toBe(false);
    expect(upstreamMethods()).toEqual([
      'tools/call',
      'tasks/get',
      'tasks/update',
      'tasks/get',
      'tasks/get',
    ]);
  });
});
