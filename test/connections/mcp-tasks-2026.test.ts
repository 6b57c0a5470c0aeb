/**
 * MCP tasks on 2026-07-28, end to end against a task server of our own written from the
 * extension's schema (`test/fixtures/task-server-2026.ts`): every call declares the extension,
 * the server decides, and a task is driven to its end inside the call (`mcpTask`). What the caller
 * sees on each ending, and what the server saw (the request sequence, `Mcp-Name`, the cancel).
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
} from '../../src/connections/index.js';
import { startTaskServer2026, type TaskServer2026 } from '../fixtures/task-server-2026.js';
import { activeResourceCounts, expectNoLeakedResources } from '../support/leaks.js';

let baseline: ReturnType<typeof activeResourceCounts>;
let server: TaskServer2026;
let tools: readonly AnyRuntimeToolDefinition[];

function connection(taskTimeoutMs?: number) {
  return defineMcpClientConnection({
    name: 'tasks',
    transport: { url: server.url, protocolVersion: '2026-07-28' },
    ...(taskTimeoutMs === undefined ? {} : { limits: { task: { timeoutMs: taskTimeoutMs } } }),
  });
}

function tool(name: string, from = tools): AnyRuntimeToolDefinition {
  const found = from.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`${name} not mounted`);
  return found;
}

/** The server's requests after the listing: `method [Mcp-Name]` (the task id as `<task>`). */
function sequence(): string[] {
  const calls = server.requests.filter((request) => request.method !== 'tools/list');
  const ids = new Set(server.tasks.keys());
  return calls.map((request) => {
    const name = request.headers.mcpName;
    const shown = name === undefined ? '' : ids.has(name) ? ' <task>' : ` ${name}`;
    return `${request.method}${shown}${request.declaresTasks ? '' : ' (no extension)'}`;
  });
}

beforeAll(async () => {
  baseline = activeResourceCounts();
  server = await startTaskServer2026();
  tools = await mountConnections([connection()], { onSkippedTool: () => {} });
});
afterAll(async () => {
  await server.close();
  // No socket or timer of a task (a poll, a deadline, a cancel) outlives the calls.
  await expectNoLeakedResources(baseline);
});
beforeEach(() => {
  server.requests.length = 0;
});

describe('a 2026 call the server runs as a task', () => {
  it('polls until the task completes and returns its result as the call result', async () => {
    const result = await runTool(
      tool('slow_compute'),
      { polls: 2, label: 'x' },
      { source: 'agent' },
    );
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'computed x' }] },
    });
    expect(sequence()).toEqual([
      'tools/call slow_compute',
      'tasks/get <task>',
      'tasks/get <task>',
      'tasks/get <task>',
    ]);
  });

  it('keeps a tool error of a completed task as the tool result it is', async () => {
    const result = await runTool(tool('failing_job'), {}, { source: 'agent' });
    // The upstream's isError result, as any plain call's: its text kept for the model.
    expect(result.ok).toBe(false);
    expect(toolCauseFromResult(result)).not.toBeInstanceOf(ConnectionTaskError);
    expect(JSON.stringify(result)).toContain('the job failed');
    expect(sequence()).toEqual(['tools/call failing_job', 'tasks/get <task>']);
  });

  it('ends typed with the server error of a failed task', async () => {
    const result = await runTool(tool('protocol_error_job'), {}, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionTaskError);
    expect(cause).toMatchObject({
      code: 'CONNECTION_TASK_FAILED',
      end: 'failed',
      status: 'failed',
      rpcCode: -32603,
      rpcMessage: 'job crashed',
      rpcData: { step: 3 },
    });
    // The server ended the task: nothing is cancelled.
    expect(sequence().filter((line) => line.startsWith('tasks/cancel'))).toEqual([]);
  });

  it('ends typed when the server cancels the task, and when it forgets it', async () => {
    const cancelled = toolCauseFromResult(
      await runTool(tool('server_cancelled_job'), {}, { source: 'agent' }),
    );
    expect(cancelled).toMatchObject({ end: 'cancelled', status: 'cancelled' });
    const lost = toolCauseFromResult(await runTool(tool('vanishing_job'), {}, { source: 'agent' }));
    expect(lost).toMatchObject({ code: 'CONNECTION_TASK_FAILED', end: 'lost' });
    expect(sequence().filter((line) => line.startsWith('tasks/cancel'))).toEqual([]);
  });

  it("answers the task's input round through the caller, then polls to the end", async () => {
    const asked: unknown[] = [];
    const result = await runTool(
      tool('confirm_delete'),
      { filename: 'a.txt' },
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
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'deleted a.txt' }] },
    });
    expect(asked).toEqual(['elicitation/create']);
    const [task] = [...server.tasks.values()].filter((entry) => entry.tool === 'confirm_delete');
    expect(task?.updates).toEqual([{ confirm: { action: 'accept', content: { confirm: true } } }]);
    expect(sequence()).toEqual([
      'tools/call confirm_delete',
      'tasks/get <task>',
      'tasks/update <task>',
      'tasks/get <task>',
      'tasks/get <task>',
    ]);
  });

  it('answers an input round before the task, then polls the task it creates (no tasks/update for that round)', async () => {
    const result = await runTool(
      tool('test_tool_with_task'),
      {},
      {
        source: 'agent',
        caller: {
          capabilities: { elicitation: {} },
          request: () => ({ result: { action: 'accept', content: { name: 'Ada' } } }),
        },
      },
    );
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
    });
    // The round's answers went with the call's retry; the task created then is only polled.
    expect(sequence()).toEqual([
      'tools/call test_tool_with_task',
      'tools/call test_tool_with_task',
      'tasks/get <task>',
    ]);
  });

  it("cancels the task on the server when the caller aborts, and ends with the caller's reason", async () => {
    const controller = new AbortController();
    const running = runTool(
      tool('forever_job'),
      {},
      { source: 'agent', signal: controller.signal },
    );
    while (!sequence().includes('tasks/get <task>')) await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('user stopped'));
    const result = await running;
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    const [task] = [...server.tasks.values()].filter((entry) => entry.tool === 'forever_job');
    expect(task?.cancelled).toBe(true);
    expect(sequence().at(-1)).toBe('tasks/cancel <task>');
  });

  it('cancels the task and ends with a timeout naming it when the task deadline fires', async () => {
    const [short] = await mountConnections([connection(1_200)], { onSkippedTool: () => {} }).then(
      (mounted) => [tool('forever_job', mounted)],
    );
    server.requests.length = 0;
    const cause = toolCauseFromResult(
      await runTool(short as AnyRuntimeToolDefinition, {}, { source: 'agent' }),
    );
    expect(cause).toBeInstanceOf(ConnectionTaskError);
    expect(cause).toMatchObject({ end: 'timeout', status: 'working', timeoutMs: 1_200 });
    expect((cause as ConnectionTaskError).taskId).toMatch(/.+/);
    expect(sequence().at(-1)).toBe('tasks/cancel <task>');
  });

  it('refuses a malformed task answer typed, and cancels the task', async () => {
    const cause = toolCauseFromResult(
      await runTool(tool('malformed_job'), { kind: 'get' }, { source: 'agent' }),
    );
    expect(cause).toMatchObject({ code: 'CONNECTION_PROTOCOL_ERROR', operation: 'tasks/get' });
    expect(sequence().at(-1)).toBe('tasks/cancel <task>');
  });

  it("waits the server's poll interval, as it changes, between polls", async () => {
    const created = Date.now();
    const result = await runTool(tool('changing_interval_job'), {}, { source: 'agent' });
    expect(result).toMatchObject({ ok: true, data: { content: [{ text: 'interval changed' }] } });
    const [task] = [...server.tasks.values()].filter((e) => e.tool === 'changing_interval_job');
    const gets = task?.gets ?? [];
    expect(gets).toHaveLength(3);
    // 300 ms after creation, then 600 ms apart (a timer may fire a few ms early).
    const [first = 0, second = 0, third = 0] = gets;
    expect(first - created).toBeGreaterThanOrEqual(300 - 25);
    expect(second - first).toBeGreaterThanOrEqual(600 - 25);
    expect(third - second).toBeGreaterThanOrEqual(600 - 25);
  });

  it('tells the caller each status change of the task as progress', async () => {
    const reports: unknown[] = [];
    await runTool(
      tool('slow_compute'),
      { polls: 2, label: 'p' },
      {
        source: 'agent',
        reportProgress: (progress, total, message) => {
          reports.push({ progress, total, message });
        },
      },
    );
    // Created working; two more working answers change nothing; then completed.
    expect(reports).toEqual([{ progress: 1, total: undefined, message: 'completed' }]);
  });

  it("runs a task past a retry policy's deadline over attempts, to the task's own, and cancels it there", async () => {
    // Under a retry policy the deadline over attempts is the handshake and the request window
    // (400 + 400 ms here); a call that became a task moves it to the task's own deadline (1,200 ms
    // and the bounds after it, decision 0046), which ends the call typed, naming the task.
    const [bounded] = await mountConnections(
      [
        defineMcpClientConnection({
          name: 'tasks',
          transport: { url: server.url, protocolVersion: '2026-07-28' },
          timeoutMs: 400,
          retry: { attempts: 2 },
          limits: { task: { timeoutMs: 1_200 } },
        }),
      ],
      { onSkippedTool: () => {} },
    ).then((mounted) => [tool('forever_job', mounted)]);
    server.requests.length = 0;
    const started = Date.now();
    const cause = toolCauseFromResult(
      await runTool(bounded as AnyRuntimeToolDefinition, {}, { source: 'agent' }),
    );
    expect(cause).toBeInstanceOf(ConnectionTaskError);
    expect(cause).toMatchObject({ end: 'timeout', status: 'working', timeoutMs: 1_200 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
    const methods = sequence();
    expect(methods.filter((line) => line.startsWith('tools/call'))).toEqual([
      'tools/call forever_job',
    ]);
    expect(methods.at(-1)).toBe('tasks/cancel <task>');
  });

  it('takes a plain answer to a call that may become a task as before', async () => {
    const result = await runTool(tool('greet'), { name: 'Ada' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: true });
    expect(sequence()).toEqual(['tools/call greet']);
  });
});
