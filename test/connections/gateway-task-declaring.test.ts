/**
 * A gateway in front of our 2026 task server, with an MCP 2026-07-28 downstream that declares the
 * tasks extension (`io.modelcontextprotocol/tasks`): the gateway does not relay tasks yet
 * (decision 0049), so it offers none. It does not advertise the extension, answers every `tasks/*`
 * request `-32601` without asking the upstream, and never hands the downstream the upstream's task
 * (whose id only the upstream knows): it drives the task itself and answers with the result, as
 * it does for a downstream that does not declare (`gateway-tasks.test.ts`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { V2Gateway } from '../fixtures/revision-gateways.js';
import { startTaskGateway2026, type TaskGateway2026 } from '../fixtures/task-gateway-2026.js';
import type { TaskServer2026 } from '../fixtures/task-server-2026.js';
import { postFramed } from '../fixtures/task-server-2026-requests.js';
import { expectNoOpenSockets } from '../support/leaks.js';

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

/** The upstream's requests, by method, in order. */
const upstreamMethods = () => upstream.requests.map((request) => request.method);

/**
 * One 2026-07-28 request to the gateway from a downstream that declares the tasks extension and
 * `capabilities`; `Mcp-Name` mirrors `params.name` or `params.taskId`.
 */
async function post(
  method: string,
  params: Readonly<Record<string, unknown>>,
  capabilities: Readonly<Record<string, unknown>> = {},
): Promise<{ readonly status: number; readonly body: Record<string, unknown> }> {
  const answer = await postFramed(gateway.url, method, params, {
    capabilities,
    clientInfo: { name: 'declaring-client', version: '1.0.0' },
  });
  return { status: answer.status, body: answer.body as Record<string, unknown> };
}

describe('a gateway before the task relay, to a downstream that declares the tasks extension', () => {
  it('does not advertise the extension', async () => {
    const { body } = await post('server/discover', {});
    const capabilities = (body.result as { capabilities: Record<string, unknown> }).capabilities;
    expect(capabilities.extensions).toBeUndefined();
  });

  it('answers with the result of the task it drove, never with a task', async () => {
    const { status, body } = await post('tools/call', {
      name: 'slow_compute',
      arguments: { polls: 1, label: 'd' },
    });
    const result = body.result as Record<string, unknown>;
    expect({ status, resultType: result.resultType, content: result.content }).toEqual({
      status: 200,
      resultType: 'complete',
      content: [{ type: 'text', text: 'computed d' }],
    });
    // A plain result's keys only: no taskId, status or other field of a task.
    expect(Object.keys(result).sort()).toEqual(['_meta', 'content', 'resultType']);
    expect(upstreamMethods()).toEqual(['tools/call', 'tasks/get', 'tasks/get']);
  });

  it('answers tasks/get, tasks/update and tasks/cancel -32601 without asking the upstream', async () => {
    const created = upstream.tasks.size;
    const answers = [];
    for (const [method, params] of [
      ['tasks/get', { taskId: 'any' }],
      ['tasks/update', { taskId: 'any', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'any' }],
    ] as const) {
      const { body } = await post(method, params);
      answers.push(body.error);
    }
    expect(answers).toEqual(
      Array.from({ length: 3 }, () => ({ code: -32601, message: 'Method not found' })),
    );
    expect(upstreamMethods()).toEqual([]);
    expect(upstream.tasks.size).toBe(created);
  });

  it("ends a call whose task asks a question with the gateway's refusal, and cancels the task", async () => {
    const { body } = await post(
      'tools/call',
      { name: 'confirm_delete', arguments: { filename: 'd.txt' } },
      { elicitation: {} },
    );
    const result = body.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? '')).toMatchObject({
      error: 'CONNECTION_PROTOCOL_ERROR',
      details: {
        message:
          "The upstream's task asked for elicitation/create, which a client on MCP 2026-07-28 cannot answer through this gateway yet.",
      },
    });
    expect(upstreamMethods()).toEqual(['tools/call', 'tasks/get', 'tasks/cancel']);
  });
});
