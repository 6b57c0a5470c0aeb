/**
 * The gateway's task relay as a unit (decision 0050), on a stand-in for the v2 SDK's low-level
 * server that records what the relay registers, so each check runs without a network: where the
 * relay installs itself, which calls may hand a task back, how long a relayed id lives, and what
 * a client's `tasks/*` request gets before and after it is forwarded. The same relay in front of
 * a real upstream and a real v2 server: `test/connections/gateway-task-relay.test.ts`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MCP_TASK_REQUESTS,
  type McpTaskRelayRequest,
  type McpTaskRequester,
} from '../../../src/binding/kernel/mcp-protocols.js';
import {
  createGatewayRequestState,
  type GatewayStateCodec,
  gatewayStateCodecOf,
} from '../../../src/binding/mounts/gateway-state.js';
import {
  createTaskRelay,
  declaresTasksExtension,
  relayedTaskAnswer,
} from '../../../src/binding/mounts/gateway-tasks.js';
import type { McpHandlerRequest, McpToolServer } from '../../../src/binding/mounts/mcp-request.js';
import { ConnectionProtocolError, ConnectionTimeoutError } from '../../../src/wire/index.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const NOW = Date.parse('2026-12-05T12:00:00Z');

type Handler = (params: Record<string, unknown>, ctx: unknown) => Promise<unknown>;

/** A stand-in for a v2 `McpServer` and its low-level server: what the relay declared and registered. */
function lowLevel() {
  const declared: unknown[] = [];
  const handlers = new Map<string, Handler>();
  return {
    declared,
    handlers,
    server: {
      registerTool: () => undefined,
      server: {
        getClientCapabilities: () => undefined,
        registerCapabilities: (capabilities: unknown) => declared.push(capabilities),
        setRequestHandler: (method: string, _schema: unknown, handler: Handler) =>
          handlers.set(method, handler),
      },
    },
  };
}

function codec(): GatewayStateCodec {
  const requestState = createGatewayRequestState();
  const found = gatewayStateCodecOf(
    { server: { _requestStateVerify: requestState.verify } },
    requestState,
  );
  if (found === undefined) throw new Error('no codec');
  return found;
}

/** A requester that records what it is sent and answers with `answer` (or throws it). */
function requester(answer: unknown = { status: 'working' }, taskTimeoutMs = 600_000) {
  const sent: { request: McpTaskRelayRequest; context: unknown; signal: AbortSignal }[] = [];
  const value: McpTaskRequester = {
    taskTimeoutMs,
    send: async (request, { signal, context }) => {
      sent.push({ request, context, signal });
      if (answer instanceof Error) throw answer;
      return answer as Record<string, unknown>;
    },
  };
  return { sent, value };
}

const relaying = (name: string, value: McpTaskRequester) => ({ name, [MCP_TASK_REQUESTS]: value });

/** The `ctx` a v2 server hands a request handler: the envelope, the signal, the client. */
function ctxOf(
  options: { declare?: boolean; clientId?: string; inputResponses?: unknown } = {},
): unknown {
  const extensions = options.declare === false ? {} : { extensions: { [TASKS]: {} } };
  return {
    mcpReq: {
      id: 1,
      envelope: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        [CAPABILITIES]: extensions,
      },
      signal: new AbortController().signal,
      ...(options.inputResponses === undefined ? {} : { inputResponses: options.inputResponses }),
    },
    ...(options.clientId === undefined
      ? {}
      : { http: { authInfo: { clientId: options.clientId } } }),
  };
}

const request = (overrides: Partial<McpHandlerRequest> = {}) =>
  ({
    stateless: true,
    clientCapabilities: { extensions: { [TASKS]: {} } },
    owner: undefined,
    ...overrides,
  }) as McpHandlerRequest;

afterEach(() => {
  vi.useRealTimers();
});

describe('declaresTasksExtension', () => {
  it('holds only for capabilities whose extensions name the tasks extension', () => {
    expect(
      [
        { extensions: { [TASKS]: {} } },
        { extensions: { 'io.example/other': {} } },
        { extensions: {} },
        { elicitation: {} },
        { extensions: [TASKS] },
        undefined,
      ].map(declaresTasksExtension),
    ).toEqual([true, false, false, false, false, false]);
  });
});

describe('createTaskRelay', () => {
  it('installs itself when some definition relays tasks: the extension declared, three handlers', () => {
    const low = lowLevel();
    const { value } = requester();
    const relay = createTaskRelay(low.server, codec(), {
      tools: () => [{ name: 'native' }, relaying('jobs_a', value)],
      contextOf: () => ({}),
    });
    expect(relay).toBeDefined();
    expect(low.declared).toEqual([{ extensions: { [TASKS]: {} } }]);
    expect([...low.handlers.keys()]).toEqual(['tasks/get', 'tasks/update', 'tasks/cancel']);
  });

  it('installs nothing when no definition relays tasks, or on a server without the low-level calls', () => {
    const { value } = requester();
    const none = lowLevel();
    expect(
      createTaskRelay(none.server, codec(), {
        tools: () => [{ name: 'native' }],
        contextOf: () => ({}),
      }),
    ).toBeUndefined();
    expect([none.declared, [...none.handlers.keys()]]).toEqual([[], []]);
    const tools = () => [relaying('jobs_a', value)];
    for (const server of [
      { server: {} },
      { server: { registerCapabilities: () => undefined } },
      { server: { setRequestHandler: () => undefined } },
      { server: undefined },
    ]) {
      const sdk = { registerTool: () => undefined, ...server } as unknown as McpToolServer;
      expect(createTaskRelay(sdk, codec(), { tools, contextOf: () => ({}) })).toBeUndefined();
    }
  });

  it('lets a call hand its task back only on 2026, declared, for a tool with a requester and no outputSchema', () => {
    const low = lowLevel();
    const { value } = requester();
    const relay = createTaskRelay(low.server, codec(), {
      tools: () => [relaying('jobs_a', value)],
      contextOf: () => ({}),
    });
    const definition = relaying('jobs_a', value);
    expect([
      relay?.requesterFor(definition, request(), false) === value,
      relay?.requesterFor(definition, request(), true),
      relay?.requesterFor(definition, request({ stateless: false }), false),
      relay?.requesterFor(definition, request({ clientCapabilities: {} }), false),
      relay?.requesterFor({ name: 'native' }, request(), false),
    ]).toEqual([true, undefined, undefined, undefined, undefined]);
  });
});

describe('relayedTaskAnswer', () => {
  const task = {
    taskId: 'up-1',
    status: 'working',
    createdAt: '2026-12-05T12:00:00Z',
    lastUpdatedAt: '2026-12-05T12:00:00Z',
    ttlMs: 60_000 as number | null,
    pollIntervalMs: 250,
  };

  it("keeps the upstream's fields, and replaces the id with one sealed for the tool and the client", () => {
    vi.useFakeTimers({ now: NOW });
    const states = codec();
    const answer = relayedTaskAnswer(states, task, 'jobs_a', 'alice', requester().value);
    const { taskId, ...rest } = answer;
    expect(rest).toEqual({ resultType: 'task', ...task, taskId: undefined });
    expect(states.openTask(String(taskId))).toEqual({
      tool: 'jobs_a',
      upstream: 'up-1',
      owner: 'alice',
      expiresAt: NOW + 60_000,
    });
  });

  it.each([
    ['the task ttl, under the task deadline', 60_000, 600_000, 60_000],
    ['the task deadline, under the task ttl', 600_000, 1_000, 1_000],
    ['the task deadline, for a task kept forever', null, 5_000, 5_000],
    ['the default task deadline, for a deadline of none', null, 0, 600_000],
  ] as const)('lives %s', (_name, ttlMs, taskTimeoutMs, lifetime) => {
    vi.useFakeTimers({ now: NOW });
    const states = codec();
    const answer = relayedTaskAnswer(
      states,
      { ...task, ttlMs },
      'jobs_a',
      undefined,
      requester(undefined, taskTimeoutMs).value,
    );
    expect(states.openTask(String(answer.taskId))?.expiresAt).toBe(NOW + lifetime);
  });
});

describe("a client's tasks/* request", () => {
  function installed(tools: () => readonly { readonly name: string }[]) {
    const low = lowLevel();
    const states = codec();
    const contexts: AbortSignal[] = [];
    createTaskRelay(low.server, states, {
      tools,
      contextOf: (signal) => {
        contexts.push(signal);
        return { host: 'context' };
      },
    });
    const call = (method: string, params: Record<string, unknown>, ctx: unknown) => {
      const handler = low.handlers.get(method);
      if (handler === undefined) throw new Error(`no ${method} handler`);
      return handler(params, ctx);
    };
    return { states, call, contexts };
  }
  const sealedFor = (states: GatewayStateCodec, tool: string, owner?: string) =>
    states.sealTask({ tool, upstream: 'up-1', owner, expiresAt: Date.now() + 60_000 });

  it('is forwarded with the upstream id and the context built for it, and answered with the sealed id', async () => {
    const upstream = requester({ resultType: 'complete', taskId: 'up-1', status: 'working' });
    const { states, call, contexts } = installed(() => [relaying('jobs_a', upstream.value)]);
    const sealed = sealedFor(states, 'jobs_a');
    const ctx = ctxOf();
    expect(await call('tasks/get', { taskId: sealed }, ctx)).toEqual({
      resultType: 'complete',
      taskId: sealed,
      status: 'working',
    });
    const signal = (ctx as { mcpReq: { signal: AbortSignal } }).mcpReq.signal;
    expect(upstream.sent).toEqual([
      { request: { method: 'tasks/get', taskId: 'up-1' }, context: { host: 'context' }, signal },
    ]);
    expect(contexts).toEqual([signal]);
  });

  it("sends tasks/update's answers from the params, or from where the SDK lifts them, and refuses none", async () => {
    const upstream = requester({});
    const { states, call } = installed(() => [relaying('jobs_a', upstream.value)]);
    const sealed = sealedFor(states, 'jobs_a');
    const answers = { confirm: { action: 'accept' } };
    await call('tasks/update', { taskId: sealed, inputResponses: answers }, ctxOf());
    await call('tasks/update', { taskId: sealed }, ctxOf({ inputResponses: answers }));
    await expect(call('tasks/update', { taskId: sealed }, ctxOf())).rejects.toMatchObject({
      code: -32602,
      message: 'inputResponses must be an object',
    });
    expect(upstream.sent.map((sent) => sent.request)).toEqual([
      { method: 'tasks/update', taskId: 'up-1', inputResponses: answers },
      { method: 'tasks/update', taskId: 'up-1', inputResponses: answers },
    ]);
  });

  it('is refused before anything is forwarded: undeclared, forged, another tool, another client', async () => {
    const upstream = requester();
    const native = { name: 'native' };
    const { states, call } = installed(() => [native, relaying('jobs_a', upstream.value)]);
    const refusals = [];
    for (const [params, ctx] of [
      [{ taskId: sealedFor(states, 'jobs_a') }, ctxOf({ declare: false })],
      [{ taskId: 'gt1.forged.tag' }, ctxOf()],
      [{ taskId: sealedFor(states, 'native') }, ctxOf()],
      [{ taskId: sealedFor(states, 'gone') }, ctxOf()],
      [{ taskId: sealedFor(states, 'jobs_a', 'alice') }, ctxOf({ clientId: 'bob' })],
      [{ taskId: sealedFor(states, 'jobs_a', 'alice') }, ctxOf()],
      [{ taskId: sealedFor(states, 'jobs_a') }, ctxOf({ clientId: 'alice' })],
    ] as const) {
      refusals.push(
        await call('tasks/cancel', params, ctx).catch(
          (error: { code: number; message: string }) => `${error.code} ${error.message}`,
        ),
      );
    }
    expect(refusals).toEqual([
      '-32021 Missing required client capability',
      ...Array.from({ length: 6 }, () => '-32602 Task not found'),
    ]);
    expect(upstream.sent).toEqual([]);
    // The owner's own request goes through.
    await call(
      'tasks/cancel',
      { taskId: sealedFor(states, 'jobs_a', 'alice') },
      ctxOf({ clientId: 'alice' }),
    );
    expect(upstream.sent).toHaveLength(1);
  });

  it("relays the upstream's JSON-RPC error as it came, and our own failure as -32603 with its envelope", async () => {
    const scope = { connectionName: 'jobs', operation: 'tasks/get', phase: 'call' } as const;
    const refused = new ConnectionProtocolError({
      ...scope,
      violation: 'answered with a JSON-RPC error',
      rpcCode: -32602,
      rpcMessage: 'Task not found',
      rpcData: { taskId: 'up-1' },
    });
    const timedOut = new ConnectionTimeoutError({ ...scope, timeoutMs: 1_000 });
    const answers = [];
    for (const failure of [refused, timedOut]) {
      const { states, call } = installed(() => [relaying('jobs_a', requester(failure).value)]);
      answers.push(
        await call('tasks/get', { taskId: sealedFor(states, 'jobs_a') }, ctxOf()).catch(
          (error: { code: number; message: string; data?: unknown }) => ({
            code: error.code,
            message: error.message,
            data: error.data,
          }),
        ),
      );
    }
    expect(answers).toEqual([
      { code: -32602, message: 'Task not found', data: { taskId: 'up-1' } },
      {
        code: -32603,
        message: 'The upstream task request failed',
        data: expect.objectContaining({ error: 'CONNECTION_TIMEOUT' }),
      },
    ]);
  });
});
