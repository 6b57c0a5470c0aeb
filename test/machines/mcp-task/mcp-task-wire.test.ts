/**
 * `mcpTask` on its real actors (the wire's exchange and the task readers) against the fault
 * server: what the call ends with and which task requests reach the server, when an answer is
 * well formed and when it is not, on each revision.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { mcpTaskMachine } from '../../../src/machines/mcp-task/mcp-task.machine.js';
import { readTaskAnswer } from '../../../src/machines/mcp-task/mcp-task.policy.js';
import type { McpTaskInput } from '../../../src/machines/mcp-task/mcp-task.types.js';
import { createHostFence } from '../../../src/wire/index.js';
import type { TaskRevision } from '../../../src/wire/mcp/tasks.js';
import { type FaultServer, reply, type SeenRequest } from '../../fixtures/fault-server.js';
import { useFaultServers } from '../../support/fault-suite.js';

const { start } = useFaultServers();

const CREATED = '2026-12-05T00:00:00Z';
/** The task as each revision writes it on the wire (2025 `ttl`, 2026 `ttlMs` and `resultType`). */
function wireTask(revision: TaskRevision, fields: Readonly<Record<string, unknown>>) {
  const task = { taskId: 't-1', createdAt: CREATED, lastUpdatedAt: CREATED, ...fields };
  return revision === '2026-07-28'
    ? { ...task, ttlMs: null, resultType: 'complete' }
    : { ...task, ttl: null };
}

type Answers = Readonly<Record<string, (request: SeenRequest) => unknown>>;

/** A server answering each task method with the result `answers` gives (JSON, 200). */
function taskServer(answers: Answers) {
  return start((request) => {
    const method = request.rpc?.method ?? '';
    const answer = answers[method];
    if (answer === undefined) return reply.status(404);
    return reply.json(200, {
      jsonrpc: '2.0',
      id: request.rpc?.id ?? null,
      result: answer(request),
    });
  });
}

function inputOf(server: FaultServer, revision: TaskRevision): McpTaskInput {
  return {
    revision,
    created: {
      taskId: 't-1',
      status: 'working',
      createdAt: CREATED,
      lastUpdatedAt: CREATED,
      ttlMs: null,
      pollIntervalMs: 250,
    },
    base: {
      scope: { connectionName: 'jobs', operation: 'tools/call', phase: 'call' },
      fence: createHostFence('jobs', new URL(server.url)),
      headers: {
        staticHeaders: {},
        token: undefined,
        sessionId: undefined,
        protocolVersion: revision,
      },
      relay: undefined,
      callerCapabilities: {},
    },
    url: server.url,
    limits: {
      request: { timeoutMs: 5_000, maxResponseBytes: 10_000 },
      task: { timeoutMs: 10_000 },
    },
    maxInputRounds: 2,
    firstRequestId: 3,
  };
}

/** Runs the task to its end; the task methods the server saw, in order. */
async function runTask(server: FaultServer, revision: TaskRevision) {
  const actor = createActor(mcpTaskMachine, { input: inputOf(server, revision) });
  actor.start();
  const output = await toPromise(actor);
  return { output, sent: server.requests.map((request) => request.rpc?.method) };
}

describe('a 2026-07-28 task', () => {
  it('reads a completed status as the call result (the status read is not an acknowledgement)', async () => {
    const server = await taskServer({
      'tasks/get': () =>
        wireTask('2026-07-28', {
          status: 'completed',
          result: { content: [{ type: 'text', text: 'done' }] },
        }),
    });
    const { output, sent } = await runTask(server, '2026-07-28');
    expect(output).toEqual({ ok: true, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(sent).toEqual(['tasks/get']);
  });
});

describe('a 2025-11-25 task', () => {
  const completed = () => wireTask('2025-11-25', { status: 'completed' });

  it('ends a malformed tasks/result as a protocol error, not as a failed task, and cancels the task', async () => {
    const server = await taskServer({
      'tasks/get': completed,
      'tasks/result': () => ({ content: 'not a list' }),
      'tasks/cancel': () => wireTask('2025-11-25', { status: 'cancelled' }),
    });
    const { output, sent } = await runTask(server, '2025-11-25');
    expect(output).toMatchObject({
      ok: false,
      error: { name: 'ConnectionProtocolError', operation: 'tasks/result', rpcCode: undefined },
    });
    expect(sent).toEqual(['tasks/get', 'tasks/result', 'tasks/cancel']);
  });
});

describe('readTaskAnswer', () => {
  it('reads a 2026 status as a status, strictly, with its inlined payload', () => {
    const scope = { connectionName: 'jobs', operation: 'tasks/get', phase: 'call' } as const;
    const answer = wireTask('2026-07-28', { status: 'working', statusMessage: 'halfway' });
    expect(readTaskAnswer(answer, 'status', '2026-07-28', scope)).toEqual({
      kind: 'status',
      task: {
        taskId: 't-1',
        status: 'working',
        statusMessage: 'halfway',
        createdAt: CREATED,
        lastUpdatedAt: CREATED,
        ttlMs: null,
      },
    });
  });
});
