/**
 * `mcpTask` on its real actors (the wire's exchange, the task readers, the caller relay) against
 * the fault server, on real timers with short windows: what the call ends with, what its progress
 * sink hears, and which task requests reach the server (method and JSON-RPC id), for answers well
 * formed and not, on each revision.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { NO_CALLER, type ToolCaller } from '../../../src/binding/contract/caller.js';
import { mcpTaskMachine } from '../../../src/machines/mcp-task/mcp-task.machine.js';
import { readTaskAnswer } from '../../../src/machines/mcp-task/mcp-task.policy.js';
import type { McpTaskInput, TaskProgress } from '../../../src/machines/mcp-task/mcp-task.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import { createHostFence } from '../../../src/wire/index.js';
import type { TaskRevision } from '../../../src/wire/mcp/tasks.js';
import {
  type FaultReply,
  type FaultServer,
  reply,
  type SeenRequest,
  sseMessageFrame,
} from '../../fixtures/fault-server.js';
import { useFaultServers } from '../../support/fault-suite.js';

const { start } = useFaultServers();

const CREATED = '2026-12-05T00:00:00Z';
/** Each task request's window: generous, so that only a server that never answers reaches it. */
const REQUEST_TIMEOUT_MS = 5_000;
/** The window of the test whose server never answers a poll. */
const HUNG_REQUEST_TIMEOUT_MS = 1_000;
const CALL_TOKEN = 'call-1';

/** The task as each revision writes it on the wire (2025 `ttl`, 2026 `ttlMs` and `resultType`). */
function wireTask(revision: TaskRevision, fields: Readonly<Record<string, unknown>>) {
  const task = { taskId: 't-1', createdAt: CREATED, lastUpdatedAt: CREATED, ...fields };
  return revision === '2026-07-28'
    ? { ...task, ttlMs: null, resultType: 'complete' }
    : { ...task, ttl: null };
}

const idOf = (request: SeenRequest) => request.rpc?.id ?? null;
/** A JSON-RPC result, as JSON. */
const result = (request: SeenRequest, value: unknown) =>
  reply.json(200, { jsonrpc: '2.0', id: idOf(request), result: value });
/** The server's progress for the call's token, then the result, on an SSE answer. */
const progressThen = (request: SeenRequest, progress: object, value: unknown) =>
  reply.sse([
    sseMessageFrame({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: CALL_TOKEN, ...progress },
    }),
    sseMessageFrame({ jsonrpc: '2.0', id: idOf(request), result: value }),
  ]);

/** Answers, per task method, the nth request of that method (the last one again after it). */
type Script = Readonly<Record<string, readonly ((request: SeenRequest) => FaultReply)[]>>;

function taskServer(script: Script) {
  const seen = new Map<string, number>();
  return start((request) => {
    const method = request.rpc?.method ?? '';
    const answers = script[method];
    if (answers === undefined) return reply.status(404);
    const index = seen.get(method) ?? 0;
    seen.set(method, index + 1);
    const answer = answers[Math.min(index, answers.length - 1)];
    return answer === undefined ? reply.status(404) : answer(request);
  });
}

function inputOf(
  server: FaultServer,
  revision: TaskRevision,
  progressTo: McpTaskInput['progressTo'],
  relay?: ToolCaller,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
): McpTaskInput {
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
      relay: relay === undefined ? undefined : new SecretValue(relay),
      callerCapabilities: relay === undefined ? {} : relay.capabilities,
    },
    url: server.url,
    limits: {
      request: { timeoutMs: requestTimeoutMs, maxResponseBytes: 10_000 },
      task: { timeoutMs: 30_000 },
    },
    maxInputRounds: 2,
    progressToken: CALL_TOKEN,
    progressTo,
    firstRequestId: 3,
  };
}

/**
 * Runs the task to its end: its output, what its progress sink heard (`close` included), each
 * task request as `method id`, and the final snapshot's context.
 */
async function runTask(
  server: FaultServer,
  revision: TaskRevision,
  relay?: ToolCaller,
  requestTimeoutMs?: number,
) {
  const heard: (TaskProgress | 'close')[] = [];
  const sink = {
    send: (event: TaskProgress) => heard.push(event),
    close: () => heard.push('close'),
  };
  const actor = createActor(mcpTaskMachine, {
    input: inputOf(server, revision, sink, relay, requestTimeoutMs),
  });
  actor.start();
  const output = await toPromise(actor);
  const sent = server.requests.map((request) => `${request.rpc?.method} ${idOf(request)}`);
  return { output, heard, sent, context: actor.getSnapshot().context };
}

describe('a 2026-07-28 task', () => {
  it('tells each change of status as progress, counted from 1, and closes its sink at the end; each request takes the next id', async () => {
    const server = await taskServer({
      'tasks/get': [
        // A server's own progress on a poll is not the call's: 2026 progress is the status.
        (request) =>
          progressThen(
            request,
            { progress: 50 },
            wireTask('2026-07-28', { status: 'working', statusMessage: 'queued' }),
          ),
        (request) =>
          result(request, wireTask('2026-07-28', { status: 'working', statusMessage: 'halfway' })),
        (request) =>
          result(
            request,
            wireTask('2026-07-28', {
              status: 'completed',
              result: { content: [{ type: 'text', text: 'done' }] },
            }),
          ),
      ],
    });
    const { output, heard, sent } = await runTask(server, '2026-07-28');
    expect(output).toEqual({ ok: true, result: { content: [{ type: 'text', text: 'done' }] } });
    // Only progress reaches the call: the bytes each poll read are counted by that read.
    expect(heard).toEqual([
      { type: 'PROGRESS', progress: 1, message: 'queued' },
      { type: 'PROGRESS', progress: 2, message: 'halfway' },
      { type: 'PROGRESS', progress: 3, message: 'completed' },
      'close',
    ]);
    expect(sent).toEqual(['tasks/get 3', 'tasks/get 4', 'tasks/get 5']);
  });

  it("answers an input round through the caller, and the final snapshot keeps neither the caller's answers nor the questions", async () => {
    const asked: unknown[] = [];
    const caller: ToolCaller = {
      ...NO_CALLER,
      capabilities: { elicitation: {} },
      request: async (request) => {
        asked.push(request);
        return { result: { action: 'accept', content: { ok: true } } };
      },
    };
    const server = await taskServer({
      'tasks/get': [
        (request) =>
          result(
            request,
            wireTask('2026-07-28', {
              status: 'input_required',
              inputRequests: {
                confirm: { method: 'elicitation/create', params: { message: 'Go on?' } },
              },
            }),
          ),
        (request) =>
          result(request, wireTask('2026-07-28', { status: 'completed', result: { content: [] } })),
      ],
      'tasks/update': [(request) => result(request, { resultType: 'complete' })],
    });
    const { output, sent, context } = await runTask(server, '2026-07-28', caller);
    expect(output).toEqual({ ok: true, result: { content: [] } });
    expect(asked).toEqual([{ method: 'elicitation/create', params: { message: 'Go on?' } }]);
    expect(sent).toEqual(['tasks/get 3', 'tasks/update 4', 'tasks/get 5']);
    expect(server.requests[1]?.rpc?.params).toMatchObject({
      taskId: 't-1',
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    });
    expect(context).toMatchObject({
      inputResponses: undefined,
      inputRequests: {},
      answeredKeys: ['confirm'],
      polls: 2,
    });
  });

  it('ends a question to a caller that answers only by a retry with every question and the task id, and leaves the task waiting', async () => {
    const server = await taskServer({
      'tasks/get': [
        (request) =>
          result(
            request,
            wireTask('2026-07-28', {
              status: 'input_required',
              inputRequests: {
                confirm: { method: 'elicitation/create', params: { message: 'Go on?' } },
                draft: { method: 'sampling/createMessage', params: { messages: [] } },
              },
            }),
          ),
      ],
      'tasks/cancel': [(request) => result(request, { resultType: 'complete' })],
    });
    const deferring: ToolCaller = {
      ...NO_CALLER,
      capabilities: { elicitation: {}, sampling: {} },
      defersInput: true,
    };
    const { output, sent } = await runTask(server, '2026-07-28', deferring);
    expect(output).toMatchObject({
      ok: false,
      error: {
        name: 'ConnectionInputRequiredError',
        taskId: 't-1',
        inputRequests: {
          confirm: { method: 'elicitation/create', params: { message: 'Go on?' } },
          draft: { method: 'sampling/createMessage', params: { messages: [] } },
        },
        message: 'Connection "jobs" task t-1 needs answers from the caller before it can go on',
      },
    });
    // The task waits upstream for the retry's answers: no tasks/cancel.
    expect(sent).toEqual(['tasks/get 3']);
  });

  it('resumes a task with the answers a retry brings: tasks/update first, then polls to the result', async () => {
    const answers = { confirm: { action: 'accept', content: { confirm: true } } };
    const server = await taskServer({
      'tasks/update': [(request) => result(request, { resultType: 'complete' })],
      'tasks/get': [
        (request) =>
          result(
            request,
            wireTask('2026-07-28', {
              status: 'completed',
              result: { content: [{ type: 'text', text: 'deleted' }] },
            }),
          ),
      ],
    });
    const deferring: ToolCaller = {
      ...NO_CALLER,
      capabilities: { elicitation: {} },
      defersInput: true,
    };
    const heard: unknown[] = [];
    const actor = createActor(mcpTaskMachine, {
      input: {
        ...inputOf(
          server,
          '2026-07-28',
          { send: (event) => heard.push(event), close: () => {} },
          deferring,
        ),
        resumeWith: answers,
      },
    });
    actor.start();
    const output = await toPromise(actor);
    expect(output).toEqual({
      ok: true,
      result: { content: [{ type: 'text', text: 'deleted' }] },
    });
    expect(server.requests.map((request) => `${request.rpc?.method} ${idOf(request)}`)).toEqual([
      'tasks/update 3',
      'tasks/get 4',
    ]);
    expect(server.requests[0]?.rpc?.params).toMatchObject({
      taskId: 't-1',
      inputResponses: answers,
    });
  });

  it("ends a poll refused with a JSON-RPC error as a protocol error keeping the server's code, words and data, and cancels the task", async () => {
    const server = await taskServer({
      'tasks/get': [
        () =>
          reply.json(400, {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'Bad task request', data: { field: 'taskId' } },
          }),
      ],
      'tasks/cancel': [(request) => result(request, { resultType: 'complete' })],
    });
    const { output, sent } = await runTask(server, '2026-07-28');
    expect(output).toMatchObject({
      ok: false,
      error: {
        name: 'ConnectionProtocolError',
        operation: 'tasks/get',
        rpcCode: -32600,
        rpcMessage: 'Bad task request',
        rpcData: { field: 'taskId' },
      },
    });
    expect(sent).toEqual(['tasks/get 3', 'tasks/cancel 4']);
  });

  it("ends a poll the server never answers at the request's deadline, naming it, and cancels the task", async () => {
    const server = await taskServer({
      'tasks/get': [() => reply.hang()],
      'tasks/cancel': [(request) => result(request, { resultType: 'complete' })],
    });
    const { output, sent } = await runTask(
      server,
      '2026-07-28',
      undefined,
      HUNG_REQUEST_TIMEOUT_MS,
    );
    expect(output).toMatchObject({
      ok: false,
      error: {
        name: 'ConnectionTaskError',
        end: 'timeout',
        timeoutMs: HUNG_REQUEST_TIMEOUT_MS,
        operation: 'tasks/get',
        status: 'working',
      },
    });
    expect(sent).toEqual(['tasks/get 3', 'tasks/cancel 4']);
  });
});

describe('a 2025-11-25 task', () => {
  const completed = (request: SeenRequest) =>
    result(request, wireTask('2025-11-25', { status: 'completed' }));
  const cancelled = (request: SeenRequest) =>
    result(request, wireTask('2025-11-25', { status: 'cancelled' }));

  it("relays the server's progress for the call while tasks/result is held, and only then", async () => {
    const server = await taskServer({
      'tasks/get': [
        (request) =>
          progressThen(request, { progress: 10 }, wireTask('2025-11-25', { status: 'completed' })),
      ],
      'tasks/result': [
        (request) =>
          progressThen(request, { progress: 50, total: 100, message: 'almost' }, { content: [] }),
      ],
    });
    const { output, heard, sent } = await runTask(server, '2025-11-25');
    expect(output).toEqual({ ok: true, result: { content: [] } });
    // No status reports on 2025: the server's own progress is the call's.
    expect(heard).toEqual([
      { type: 'PROGRESS', progress: 50, total: 100, message: 'almost' },
      'close',
    ]);
    expect(sent).toEqual(['tasks/get 3', 'tasks/result 4']);
  });

  it("ends with the JSON-RPC error tasks/result answered as the failed task's, sending no tasks/cancel", async () => {
    const server = await taskServer({
      'tasks/get': [completed],
      'tasks/result': [
        (request) =>
          reply.json(200, {
            jsonrpc: '2.0',
            id: idOf(request),
            error: { code: -32603, message: 'job crashed', data: { step: 3 } },
          }),
      ],
    });
    const { output, sent } = await runTask(server, '2025-11-25');
    expect(output).toMatchObject({
      ok: false,
      error: {
        name: 'ConnectionTaskError',
        end: 'failed',
        operation: 'tasks/result',
        rpcCode: -32603,
        rpcMessage: 'job crashed',
        rpcData: { step: 3 },
        cause: { name: 'ConnectionProtocolError', rpcCode: -32603 },
      },
    });
    expect(sent).toEqual(['tasks/get 3', 'tasks/result 4']);
  });

  it('ends a malformed tasks/result as a protocol error, not as a failed task, and cancels the task', async () => {
    const server = await taskServer({
      'tasks/get': [completed],
      'tasks/result': [(request) => result(request, { content: 'not a list' })],
      'tasks/cancel': [cancelled],
    });
    const { output, sent } = await runTask(server, '2025-11-25');
    expect(output).toMatchObject({
      ok: false,
      error: { name: 'ConnectionProtocolError', operation: 'tasks/result', rpcCode: undefined },
    });
    expect(sent).toEqual(['tasks/get 3', 'tasks/result 4', 'tasks/cancel 5']);
  });

  it('ends a refused tasks/result naming it, and cancels the task', async () => {
    const server = await taskServer({
      'tasks/get': [completed],
      'tasks/result': [() => reply.status(500, 'boom')],
      'tasks/cancel': [cancelled],
    });
    const { output, sent } = await runTask(server, '2025-11-25');
    expect(output).toMatchObject({
      ok: false,
      error: { name: 'ConnectionRequestError', status: 500, operation: 'tasks/result' },
    });
    expect(sent).toEqual(['tasks/get 3', 'tasks/result 4', 'tasks/cancel 5']);
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
