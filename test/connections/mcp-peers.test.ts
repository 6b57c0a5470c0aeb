/**
 * MCP connections against the MCP SDK's own servers on loopback: Streamable HTTP sessionless (JSON
 * and SSE answers), stateful (session DELETE at teardown), and legacy HTTP+SSE behind 400/404/405.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  AppError,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import type { TransitionRecord } from '../../src/connections/index.js';
import {
  ConnectionBudgetExceededError,
  defineMcpClientConnection,
  describeCatalog,
  mountConnections,
} from '../../src/connections/index.js';
import { FAIL_TOOL_PAYLOAD, PEER_TOOL_NAMES } from '../fixtures/mcp-peers.js';
import { useMcpPeers } from '../support/peer-suite.js';

const peers = useMcpPeers();
beforeEach(() => peers.resetLog());

function connection(
  path: string,
  extra: Partial<Parameters<typeof defineMcpClientConnection>[0]> = {},
) {
  return defineMcpClientConnection({ name: 'peer', transport: { url: peers.url(path) }, ...extra });
}

function toolNamed(
  tools: readonly AnyRuntimeToolDefinition[],
  name: string,
): AnyRuntimeToolDefinition {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`tool ${name} not mounted`);
  return tool;
}

function wireLog(): string[] {
  return peers.log.map((entry) =>
    `${entry.method} ${entry.path} ${entry.rpcMethods.join(',')}`.trim(),
  );
}

describe.each([
  { path: '/sessionless-json', transport: 'streamable-http' },
  { path: '/sessionless-sse', transport: 'streamable-http' },
])('a Streamable HTTP peer at $path', ({ path }) => {
  it('discovers every tool and calls one with exactly initialize, initialized and tools/call', async () => {
    const tools = await mountConnections([connection(path)]);
    expect(tools.map((tool) => tool.name).sort()).toEqual([...PEER_TOOL_NAMES].sort());
    peers.resetLog();
    const result = await runTool(toolNamed(tools, 'echo'), { message: 'hi' }, { source: 'agent' });
    expect(result).toEqual({
      ok: true,
      data: { content: [{ type: 'text', text: 'Echo: hi' }], structuredContent: { echoed: 'hi' } },
    });
    expect(wireLog()).toEqual([
      `POST ${path} initialize`,
      `POST ${path} notifications/initialized`,
      `POST ${path} tools/call`,
    ]);
  });
});

// A connection without a token provider has nothing to resolve: it starts with its first POST.
const STREAMABLE_CALL = [
  ['', 'session.initializing', 'xstate.init', 'initialize'],
  [
    'session.initializing',
    'session.notifying',
    'xstate.done.actor.postInitialize',
    'notifications/initialized',
  ],
  [
    'session.notifying',
    'session.requesting.waiting',
    'xstate.done.actor.postInitialized',
    'tools/call',
  ],
] as const;

describe.each([
  {
    path: '/sessionless-json',
    ending: [
      ['session.requesting.waiting', 'closed', 'xstate.done.actor.postRequest', 'tools/call'],
    ],
  },
  {
    path: '/sessionless-sse',
    ending: [
      ['session.requesting.waiting', 'closed', 'xstate.done.actor.postRequest', 'tools/call'],
    ],
  },
  {
    path: '/stateful',
    ending: [
      [
        'session.requesting.waiting',
        'endingSession',
        'xstate.done.actor.postRequest',
        'tools/call',
      ],
      ['endingSession', 'closed', 'xstate.done.actor.deleteSession', 'tools/call'],
    ],
  },
])('an ordinary call to $path', ({ path, ending }) => {
  it('takes exactly the Streamable happy path, one record per transition', async () => {
    const records: TransitionRecord[] = [];
    const tools = await mountConnections([
      connection(path, {
        observe: (record) => {
          if (record.phase === 'call') records.push(record);
        },
      }),
    ]);
    const result = await runTool(toolNamed(tools, 'echo'), { message: 'hi' }, { source: 'agent' });
    expect(result.ok).toBe(true);
    expect(
      records.map(({ machine, connection: name, phase }) => ({ machine, name, phase })),
    ).toEqual(
      Array(STREAMABLE_CALL.length + ending.length).fill({
        machine: 'mcpOperation',
        name: 'peer',
        phase: 'call',
      }),
    );
    expect(records.map(({ from, to, event, operation }) => [from, to, event, operation])).toEqual([
      ...STREAMABLE_CALL,
      ...ending,
    ]);
  });
});

describe('a call through a connection with a token provider', () => {
  it('resolves the token first (one more record), then takes the same happy path', async () => {
    const records: TransitionRecord[] = [];
    const principals: unknown[] = [];
    const tools = await mountConnections([
      connection('/sessionless-json', {
        token: (context) => {
          principals.push(context?.source);
          return 'secret';
        },
        observe: (record) => {
          if (record.phase === 'call') records.push(record);
        },
      }),
    ]);
    const result = await runTool(toolNamed(tools, 'echo'), { message: 'hi' }, { source: 'agent' });
    expect(result.ok).toBe(true);
    // Discovery resolved it with no principal; the call with its handler context.
    expect(principals).toEqual([undefined, 'agent']);
    expect(records.map(({ from, to, event, operation }) => [from, to, event, operation])).toEqual([
      ['', 'credentials', 'xstate.init', 'initialize'],
      ['credentials', 'session.initializing', 'xstate.done.actor.resolveCredentials', 'initialize'],
      ...STREAMABLE_CALL.slice(1),
      ['session.requesting.waiting', 'closed', 'xstate.done.actor.postRequest', 'tools/call'],
    ]);
  });
});

describe('a stateful Streamable HTTP peer', () => {
  it('ends the session with DELETE after discovery and after each call', async () => {
    const before = { ...peers.sessions };
    const tools = await mountConnections([connection('/stateful')]);
    expect(peers.sessions).toMatchObject({
      opened: before.opened + 1,
      deleted: before.deleted + 1,
      deletesSucceeded: before.deletesSucceeded + 1,
      active: 0,
    });
    peers.resetLog();
    const result = await runTool(toolNamed(tools, 'add'), { a: 2, b: 3 }, { source: 'agent' });
    expect(result.ok).toBe(true);
    expect(wireLog()).toEqual([
      'POST /stateful initialize',
      'POST /stateful notifications/initialized',
      'POST /stateful tools/call',
      'DELETE /stateful',
    ]);
    const [, initialized, call, end] = peers.log;
    const sessionId = initialized?.headers['mcp-session-id'];
    expect(sessionId).toBeTruthy();
    expect(call?.headers['mcp-session-id']).toBe(sessionId);
    expect(end?.headers['mcp-session-id']).toBe(sessionId);
    expect(call?.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(peers.sessions).toMatchObject({
      opened: before.opened + 2,
      deleted: before.deleted + 2,
      active: 0,
    });
  });
});

describe.each(['/legacy-404', '/legacy-405', '/legacy-400'])(
  'a legacy HTTP+SSE peer at %s',
  (path) => {
    it('falls back once to the SSE stream and completes discovery and a call over it', async () => {
      const tools = await mountConnections([connection(path)]);
      expect(tools).toHaveLength(PEER_TOOL_NAMES.length);
      peers.resetLog();
      const result = await runTool(
        toolNamed(tools, 'echo'),
        { message: 'legacy' },
        { source: 'agent' },
      );
      expect(result).toMatchObject({ ok: true, data: { structuredContent: { echoed: 'legacy' } } });
      expect(wireLog()).toEqual([
        `POST ${path} initialize`,
        `GET ${path}`,
        'POST /messages initialize',
        'POST /messages notifications/initialized',
        'POST /messages tools/call',
      ]);
      // The client aborted its GET at teardown; the server notices the closed socket shortly after.
      await expect.poll(() => peers.openStreams()).toBe(0);
    });
  },
);

describe('tool filters, budgets and the catalog', () => {
  it('mounts only allowed tools minus blocked ones', async () => {
    const tools = await mountConnections([
      connection('/sessionless-json', { tools: { allow: ['echo', 'add', 'big'], block: ['big'] } }),
    ]);
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'add']);
  });

  it('refuses a surface above maxTools after discovery', async () => {
    const error = await mountConnections([connection('/sessionless-json')], {
      budget: { maxTools: 2 },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionBudgetExceededError);
    expect(error).toMatchObject({ limit: 2, actual: PEER_TOOL_NAMES.length, unit: 'tools' });
  });

  it('refuses a surface above maxSchemaBytes and reports the bytes per connection', async () => {
    const tools = await mountConnections([connection('/sessionless-json')]);
    const catalog = describeCatalog(tools);
    expect(catalog.totals.tools).toBe(PEER_TOOL_NAMES.length);
    expect(catalog.connections).toEqual([
      {
        connection: 'peer',
        tools: PEER_TOOL_NAMES.length,
        schemaBytes: catalog.totals.schemaBytes,
        skipped: 0,
      },
    ]);
    expect(catalog.totals.schemaBytes).toBeGreaterThan(100);
    await expect(
      mountConnections([connection('/sessionless-json')], { budget: { maxSchemaBytes: 10 } }),
    ).rejects.toMatchObject({
      limit: 10,
      actual: catalog.totals.schemaBytes,
      unit: 'schema bytes',
    });
  });
});

describe('tool results', () => {
  it('relays a structured upstream refusal with its code, hint and retryability', async () => {
    const tools = await mountConnections([connection('/sessionless-json')]);
    const result = await runTool(toolNamed(tools, 'fail'), {}, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: FAIL_TOOL_PAYLOAD.error,
      details: { message: FAIL_TOOL_PAYLOAD.message },
      hint: FAIL_TOOL_PAYLOAD._hint,
      retryable: false,
    });
    expect(toolCauseFromResult(result)).toBeInstanceOf(AppError);
  });

  it('validates arguments against the converted server schema before any request', async () => {
    const tools = await mountConnections([connection('/sessionless-json')]);
    peers.resetLog();
    const result = await runTool(toolNamed(tools, 'add'), { a: 'two', b: 3 }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(peers.log).toEqual([]);
  });

  it('cancels a running call: the caller gets its exact reason and the server handler sees the abort', async () => {
    const tools = await mountConnections([connection('/stateful')]);
    peers.resetLog();
    const deletedBefore = peers.sessions.deleted;
    const abortedBefore = peers.abortedToolSignals;
    const controller = new AbortController();
    const reason = new Error('caller stopped');
    const running = runTool(
      toolNamed(tools, 'slow'),
      { ms: 10_000 },
      { source: 'agent', signal: controller.signal },
    );
    await expect
      .poll(() => peers.log.some((entry) => entry.rpcMethods.includes('tools/call')))
      .toBe(true);
    controller.abort(reason);
    const result = await running;
    expect(result.ok).toBe(false);
    expect(toolCauseFromResult(result)).toBe(reason);
    // Teardown still ends the session, so the server drops the request and aborts its handler.
    await expect.poll(() => peers.sessions.deleted).toBe(deletedBefore + 1);
    await expect.poll(() => peers.abortedToolSignals).toBe(abortedBefore + 1);
  });
});
