/**
 * MCP tasks on 2025-11-25, end to end against the MCP SDK v1's experimental task server
 * (`test/fixtures/task-server-2025.ts`): a `required` tool mounts where the server offers
 * task-augmented calls and is called with `params.task`; an `optional` one is called plainly unless
 * the connection says `tasks: { optional: 'task' }`. The task lives in its session, which the call
 * holds until the task ends and then closes. What the caller sees, and the requests, pinned.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionTaskError,
  defineMcpClientConnection,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';
import { startTaskServer2025, type TaskServer2025 } from '../fixtures/task-server-2025.js';
import { activeResourceCounts, expectNoLeakedResources } from '../support/leaks.js';

let baseline: ReturnType<typeof activeResourceCounts>;
let server: TaskServer2025;

async function mount(options: { optional?: 'plain' | 'task'; taskTimeoutMs?: number } = {}) {
  const skipped: SkippedTool[] = [];
  const tools = await mountConnections(
    [
      defineMcpClientConnection({
        name: 'tasks25',
        transport: { url: server.url, protocolVersion: '2025-11-25' },
        ...(options.optional === undefined ? {} : { tasks: { optional: options.optional } }),
        ...(options.taskTimeoutMs === undefined
          ? {}
          : { limits: { task: { timeoutMs: options.taskTimeoutMs } } }),
      }),
    ],
    { onSkippedTool: (report) => skipped.push(report) },
  );
  return { tools, skipped };
}

function tool(tools: readonly AnyRuntimeToolDefinition[], name: string) {
  const found = tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`${name} not mounted`);
  return found;
}

/** The requests of the call: `HTTP method`, then the JSON-RPC method of a POST. */
function sequence(): string[] {
  return server.requests.map((request) =>
    request.httpMethod === 'POST'
      ? `POST ${request.method || '(response)'}${request.method === 'tools/call' && request.params.task !== undefined ? ' +task' : ''}`
      : request.httpMethod,
  );
}

let tools: readonly AnyRuntimeToolDefinition[];
beforeAll(async () => {
  baseline = activeResourceCounts();
  server = await startTaskServer2025();
  ({ tools } = await mount());
});
afterAll(async () => {
  await server.close();
  // No socket or timer of a task (a poll, a deadline, a cancel) outlives the calls.
  await expectNoLeakedResources(baseline);
});
beforeEach(() => {
  server.requests.length = 0;
});

describe('a 2025 server that offers task-augmented calls', () => {
  it('mounts its task-only tools', async () => {
    const { skipped } = await mount();
    expect(skipped.filter((report) => report.reason === 'requires-task')).toEqual([]);
    expect(tools.map((definition) => definition.name).sort()).toEqual([
      'confirm_task',
      'failing_task',
      'forever_task',
      'optional_compute',
      'progress_task',
      'required_compute',
    ]);
  });

  it('calls a required tool as a task in one session: polls, fetches the result, ends the session', async () => {
    const result = await runTool(
      tool(tools, 'required_compute'),
      { label: 'r', polls: 1 },
      {
        source: 'agent',
      },
    );
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'computed r' }] },
    });
    expect(sequence()).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'POST tools/call +task',
      'POST tasks/get',
      'POST tasks/get',
      'POST tasks/result',
      'DELETE',
    ]);
    const sessions = new Set(server.requests.slice(1).map((request) => request.sessionId));
    expect(sessions.size).toBe(1);
  });

  it("calls an optional tool plainly, or as a task when the connection says tasks.optional: 'task'", async () => {
    await runTool(tool(tools, 'optional_compute'), { label: 'p' }, { source: 'agent' });
    expect(sequence()).toContain('POST tools/call');
    expect(sequence()).not.toContain('POST tasks/get');
    const asTask = await mount({ optional: 'task' });
    server.requests.length = 0;
    const result = await runTool(
      tool(asTask.tools, 'optional_compute'),
      { label: 't', polls: 0 },
      {
        source: 'agent',
      },
    );
    expect(result).toMatchObject({ ok: true, data: { content: [{ text: 'computed t' }] } });
    expect(sequence()).toContain('POST tools/call +task');
  });

  it('keeps the tool error a failed task ended with', async () => {
    const result = await runTool(tool(tools, 'failing_task'), {}, { source: 'agent' });
    expect(result.ok).toBe(false);
    expect(toolCauseFromResult(result)).not.toBeInstanceOf(ConnectionTaskError);
    expect(JSON.stringify(result)).toContain('the task failed');
  });

  it("answers the server's question inside the task through the caller (over tasks/result)", async () => {
    const asked: string[] = [];
    const result = await runTool(
      tool(tools, 'confirm_task'),
      { filename: 'b.txt' },
      {
        source: 'agent',
        caller: {
          capabilities: { elicitation: {} },
          request: (request) => {
            asked.push(request.method);
            return { result: { action: 'accept', content: { confirm: true } } };
          },
        },
      },
    );
    expect(asked).toEqual(['elicitation/create']);
    expect(result).toMatchObject({ ok: true });
    // One session: its standalone stream held for the caller, the task polled once (it asks at
    // once), then tasks/result, on whose stream the question comes and is answered by a POST.
    expect(sequence()).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'POST tools/call +task',
      'POST tasks/get',
      'POST tasks/result',
      'POST (response)',
      'DELETE',
    ]);
  });

  it("cancels the task in its session on the caller's abort, then ends the session", async () => {
    const controller = new AbortController();
    const running = runTool(
      tool(tools, 'forever_task'),
      {},
      {
        source: 'agent',
        signal: controller.signal,
      },
    );
    while (!sequence().includes('POST tasks/get')) await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('user stopped'));
    expect(await running).toMatchObject({ ok: false, code: 'CANCELLED' });
    const seen = sequence();
    expect(seen.slice(-2)).toEqual(['POST tasks/cancel', 'DELETE']);
    expect(seen).not.toContain('POST notifications/cancelled');
    const [taskId] = [...server.tasks.keys()].slice(-1);
    expect(await server.statusOf(taskId as string)).toBe('cancelled');
  });

  it('ends with a task timeout naming the task when the task deadline fires, and cancels it', async () => {
    const short = await mount({ taskTimeoutMs: 1_000 });
    server.requests.length = 0;
    const cause = toolCauseFromResult(
      await runTool(tool(short.tools, 'forever_task'), {}, { source: 'agent' }),
    );
    expect(cause).toMatchObject({
      code: 'CONNECTION_TASK_FAILED',
      end: 'timeout',
      timeoutMs: 1_000,
    });
    expect(sequence().slice(-2)).toEqual(['POST tasks/cancel', 'DELETE']);
  });

  it("relays the server's progress for the call while the task runs", async () => {
    const reports: unknown[] = [];
    const result = await runTool(
      tool(tools, 'progress_task'),
      {},
      {
        source: 'agent',
        reportProgress: (progress, total, message) => {
          reports.push({ progress, total, message });
        },
      },
    );
    expect(result).toMatchObject({ ok: true });
    // The server's own reports, on the call's stream and then over tasks/result, in order.
    expect(reports).toEqual([
      { progress: 1, total: 2, message: 'started' },
      { progress: 2, total: 2, message: 'finishing' },
    ]);
  });
});
