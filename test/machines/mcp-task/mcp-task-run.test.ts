/**
 * `mcpTask` run from its start on stand-in task requests that answer at once, on fake timers:
 * what the caller gets and which requests the task sends when polls fail in a way that mends
 * itself (asked again, three in a row at most), and when the task deadline fires while it waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { TaskExchangeInput } from '../../../src/machines/mcp-task/mcp-task.actors.js';
import { mcpTaskMachine } from '../../../src/machines/mcp-task/mcp-task.machine.js';
import type { McpTaskInput, TaskExchange } from '../../../src/machines/mcp-task/mcp-task.types.js';
import { ConnectionNetworkError, createHostFence } from '../../../src/wire/index.js';

const URL_OF_TASK = 'http://127.0.0.1:7000/mcp';
const input: McpTaskInput = {
  revision: '2026-07-28',
  created: {
    taskId: 't-1',
    status: 'working',
    createdAt: '2026-12-05T00:00:00Z',
    lastUpdatedAt: '2026-12-05T00:00:00Z',
    ttlMs: null,
    pollIntervalMs: 500,
  },
  base: {
    scope: { connectionName: 'jobs', operation: 'tools/call', phase: 'call' },
    fence: createHostFence('jobs', new URL(URL_OF_TASK)),
    headers: {
      staticHeaders: {},
      token: undefined,
      sessionId: undefined,
      protocolVersion: undefined,
    },
    relay: undefined,
    callerCapabilities: {},
  },
  url: URL_OF_TASK,
  limits: { request: { timeoutMs: 3_000, maxResponseBytes: 10_000 }, task: { timeoutMs: 60_000 } },
  maxInputRounds: 2,
  firstRequestId: 3,
};

const reset = () =>
  new ConnectionNetworkError({ connectionName: 'jobs', operation: 'tasks/get', failure: 'reset' });
const status = (value: string): TaskExchange => ({
  kind: 'status',
  task: {
    ...input.created,
    status: value as 'working',
    ...(value === 'completed' ? { result: { content: [{ type: 'text', text: 'done' }] } } : {}),
  },
});

/** Runs the task on a script of answers to `tasks/get`; records each request's method. */
async function run(script: readonly (TaskExchange | Error)[]) {
  const sent: string[] = [];
  let next = 0;
  const machine = mcpTaskMachine.provide({
    actors: {
      taskExchange: fromPromise<TaskExchange, TaskExchangeInput>(async ({ input: request }) => {
        const method = (request.exchange.message as { method: string }).method;
        sent.push(method);
        if (method !== 'tasks/get') return { kind: 'ack' };
        const answer = script[next++] ?? status('working');
        if (answer instanceof Error) throw answer;
        return answer;
      }),
    },
  });
  const actor = createActor(machine, { input });
  actor.start();
  const done = toPromise(actor);
  await vi.runAllTimersAsync();
  return { output: await done, sent };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('mcpTask polls that fail in a way that mends itself', () => {
  it('are asked again, and the task completes', async () => {
    const { output, sent } = await run([
      reset(),
      { kind: 'http-error', status: 503, body: '' },
      reset(),
      status('completed'),
    ]);
    expect(output).toEqual({ ok: true, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(sent).toEqual(['tasks/get', 'tasks/get', 'tasks/get', 'tasks/get']);
  });

  it('count from the last good status: three in a row are forgiven, a fourth ends the call and cancels the task', async () => {
    const { output, sent } = await run([
      reset(),
      reset(),
      status('working'),
      reset(),
      reset(),
      reset(),
      reset(),
    ]);
    expect(output).toMatchObject({ ok: false, error: { code: 'CONNECTION_NETWORK_ERROR' } });
    expect(sent).toEqual([...Array(7).fill('tasks/get'), 'tasks/cancel']);
  });

  it('do not include a refusal that will not mend (500): it ends the call at once', async () => {
    const { output, sent } = await run([{ kind: 'http-error', status: 500, body: 'boom' }]);
    expect(output).toMatchObject({ ok: false, error: { code: 'CONNECTION_REQUEST_FAILED' } });
    expect(sent).toEqual(['tasks/get', 'tasks/cancel']);
  });
});

describe('the task deadline while the task works', () => {
  it('fires between polls, cancels the task, and names the deadline', async () => {
    const { output, sent } = await run([]);
    expect(output).toMatchObject({
      ok: false,
      error: {
        code: 'CONNECTION_TASK_FAILED',
        end: 'timeout',
        timeoutMs: 60_000,
        status: 'working',
      },
    });
    // Polls every 500 ms for 60 s, then one cancel.
    expect(sent.filter((method) => method === 'tasks/get')).toHaveLength(120);
    expect(sent.at(-1)).toBe('tasks/cancel');
  });

  it("fires at the task's shortened life instead, as expired", async () => {
    const shortened: TaskExchange = {
      kind: 'status',
      task: { ...input.created, status: 'working', ttlMs: 2_000 },
    };
    // Every answer states the shortened life (an answer without it would lift it again).
    const { output, sent } = await run(Array(10).fill(shortened));
    expect(output).toMatchObject({
      ok: false,
      error: { code: 'CONNECTION_TASK_FAILED', end: 'expired', timeoutMs: 2_000 },
    });
    // Polls at 0.5, 1, 1.5 and 2 s (that poll's timer was set first and its answer is instant);
    // the life ends at 2 s, before the fifth.
    expect(sent).toEqual(['tasks/get', 'tasks/get', 'tasks/get', 'tasks/get', 'tasks/cancel']);
  });
});
