/**
 * Credentials per operation: the token provider runs with no context for discovery and with each
 * call's own context, a 401 makes the next call resolve a fresh token, and neither tokens nor
 * static header values ever reach errors, results, transition records, inspection or the model.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import {
  type AnyRuntimeToolDefinition,
  isAgentToolError,
  mountAgent,
  runTool,
  type ToolResult,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  type ConnectionTokenProvider,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import type { TransitionRecord } from '../../src/machines/observe.js';
import {
  answerRpc,
  type FaultServer,
  mcpHandler,
  reply,
  type SeenRequest,
  startFaultServer,
} from '../fixtures/fault-server.js';
import { useMcpPeers } from '../support/peer-suite.js';

const TOKEN = 'tok-SECRET-123';
const STATIC_KEY = 'KEY-SECRET';

const peers = useMcpPeers();
let fault: FaultServer;

beforeAll(async () => {
  fault = await startFaultServer(mcpHandler());
});
afterAll(async () => {
  await fault.close();
});
beforeEach(() => {
  peers.resetLog();
  fault.setHandler(mcpHandler());
});

function toolNamed(tools: readonly AnyRuntimeToolDefinition[], name: string) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`tool ${name} not mounted`);
  return tool;
}

function principalOf(context: unknown): string | undefined {
  const principal = (context as { principal?: unknown } | undefined)?.principal;
  return typeof principal === 'string' ? principal : undefined;
}

/** A provider mapping each context to a token, recording the principal of every call. */
function recordingProvider(map: (principal: string | undefined) => string) {
  const seen: (string | undefined)[] = [];
  const provider: ConnectionTokenProvider = async (context) => {
    const principal = principalOf(context);
    seen.push(context === undefined ? undefined : `context:${principal}`);
    return map(principal);
  };
  return { seen, provider };
}

/** `authorization + JSON-RPC method` of each logged peer request, sorted. */
function peerAuthorizations(): string[] {
  return peers.log
    .map((entry) => `${entry.headers.authorization ?? '-'} ${entry.rpcMethods.join(',')}`)
    .sort();
}

/** The whole ToolResult of `whoami` when the server saw `authorization`. */
function whoamiAnswer(authorization: string | null): ToolResult {
  return {
    ok: true,
    data: {
      content: [{ type: 'text', text: JSON.stringify({ authorization }) }],
      structuredContent: { authorization },
    },
  };
}

const methodsOf = (requests: readonly SeenRequest[]) =>
  requests.map((request) => `${request.method} ${request.rpc?.method ?? ''}`.trim());

/**
 * JSON of anything, errors expanded (name, message, own fields, cause), cycles cut and actor
 * references reduced to their id, so every reachable value is checked, not just the enumerable.
 */
function serialize(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, current: unknown) => {
    if (typeof current !== 'object' || current === null) return current;
    if (seen.has(current)) return '[cycle]';
    seen.add(current);
    const maybeActor = current as { sessionId?: unknown; send?: unknown; id?: unknown };
    if (typeof maybeActor.send === 'function' && typeof maybeActor.sessionId === 'string') {
      return `[actor ${String(maybeActor.id)}]`;
    }
    if (current instanceof Error) {
      return { ...current, name: current.name, message: current.message, cause: current.cause };
    }
    return current;
  });
}

describe('tokens follow each call', () => {
  it('sends each principal only its own bearer in two concurrent calls', async () => {
    const { seen, provider } = recordingProvider((principal) => `tok-${principal ?? 'discovery'}`);
    const connection = defineMcpClientConnection({
      name: 'peer',
      transport: { url: peers.url('/sessionless-json') },
      token: provider,
    });
    const tools = await mountConnections([connection]);
    expect(seen).toEqual([undefined]);
    // The stateless probe (refused by this 2025 server), then the 2025 handshake: one token for all.
    expect(peerAuthorizations()).toEqual([
      'Bearer tok-discovery initialize',
      'Bearer tok-discovery notifications/initialized',
      'Bearer tok-discovery tools/list',
      'Bearer tok-discovery tools/list',
    ]);
    peers.resetLog();

    const whoami = toolNamed(tools, 'whoami');
    const [a, b] = await Promise.all([
      runTool(whoami, {}, { source: 'agent', context: { principal: 'A' } }),
      runTool(whoami, {}, { source: 'agent', context: { principal: 'B' } }),
    ]);
    expect([a, b]).toEqual([whoamiAnswer('Bearer tok-A'), whoamiAnswer('Bearer tok-B')]);
    expect(peerAuthorizations()).toEqual([
      'Bearer tok-A initialize',
      'Bearer tok-A notifications/initialized',
      'Bearer tok-A tools/call',
      'Bearer tok-B initialize',
      'Bearer tok-B notifications/initialized',
      'Bearer tok-B tools/call',
    ]);
    expect([...seen].sort()).toEqual(['context:A', 'context:B', undefined]);
  });

  it('passes mountAgent host context to the provider', async () => {
    const { seen, provider } = recordingProvider((principal) => `tok-${principal ?? 'discovery'}`);
    const connection = defineMcpClientConnection({
      name: 'peer',
      transport: { url: peers.url('/sessionless-json') },
      token: provider,
    });
    const toolSet = mountAgent({
      runtimeTools: await mountConnections([connection]),
      context: { principal: 'agent-user' },
    });
    const output = await toolSet.whoami?.execute({}, { toolCallId: 'call-1' });
    expect({ ok: true, data: output }).toEqual(whoamiAnswer('Bearer tok-agent-user'));
    expect(seen).toEqual([undefined, 'context:agent-user']);
  });

  it('never lets a second mount see the first mount token', async () => {
    const first = defineMcpClientConnection({
      name: 'first',
      transport: { url: peers.url('/sessionless-json') },
      token: () => 'tok-first',
    });
    const second = defineMcpClientConnection({
      name: 'second',
      transport: { url: peers.url('/sessionless-json') },
      token: () => 'tok-second',
    });
    const firstTools = await mountConnections([first]);
    const secondTools = await mountConnections([second]);
    peers.resetLog();
    const fromSecond = await runTool(toolNamed(secondTools, 'whoami'), {}, { source: 'agent' });
    expect(fromSecond).toEqual(whoamiAnswer('Bearer tok-second'));
    expect(peerAuthorizations()).toEqual([
      'Bearer tok-second initialize',
      'Bearer tok-second notifications/initialized',
      'Bearer tok-second tools/call',
    ]);
    peers.resetLog();
    const fromFirst = await runTool(toolNamed(firstTools, 'whoami'), {}, { source: 'agent' });
    expect(fromFirst).toEqual(whoamiAnswer('Bearer tok-first'));
    expect(peerAuthorizations()).toEqual([
      'Bearer tok-first initialize',
      'Bearer tok-first notifications/initialized',
      'Bearer tok-first tools/call',
    ]);
  });
});

describe('reauthorization', () => {
  it('resolves a new token for the call after a 401 and succeeds with it', async () => {
    let issued = 0;
    const connection = defineMcpClientConnection({
      name: 'reauth',
      transport: { url: fault.url },
      token: () => {
        issued += 1;
        return `tok-${issued}`;
      },
    });
    fault.setHandler(
      mcpHandler({
        'tools/call': (request) =>
          request.headers.authorization === 'Bearer tok-2'
            ? reply.status(401, 'expired')
            : reply.json(200, answerRpc(request)),
      }),
    );
    const tools = await mountConnections([connection]);
    expect(issued).toBe(1);
    const before = fault.count();
    const echo = toolNamed(tools, 'echo');

    const refused = await runTool(echo, { message: 'one' }, { source: 'agent' });
    expect(refused).toEqual({
      ok: false,
      code: 'UNAUTHORIZED',
      details: {
        message: 'The connection requires authorization.',
        reason: 'authorization-required',
        operation: 'tools/call',
        phase: 'call',
      },
      hint: 'Obtain a new credential before retrying.',
      retryable: false,
    });
    expect(toolCauseFromResult(refused)).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(issued).toBe(2);

    const retried = await runTool(echo, { message: 'two' }, { source: 'agent' });
    expect(retried).toEqual({
      ok: true,
      data: { content: [{ type: 'text', text: 'Echo: two' }] },
    });
    expect(issued).toBe(3);
    expect(
      fault.requests
        .slice(before)
        .map((request) => `${request.headers.authorization} ${request.rpc?.method}`),
    ).toEqual([
      'Bearer tok-2 initialize',
      'Bearer tok-2 notifications/initialized',
      'Bearer tok-2 tools/call',
      'Bearer tok-3 initialize',
      'Bearer tok-3 notifications/initialized',
      'Bearer tok-3 tools/call',
    ]);
  });
});

describe('secrets stay out of every output', () => {
  it('keeps the token and static header values out of errors, results, records, inspection and the model', async () => {
    const records: TransitionRecord[] = [];
    const mountRecords: TransitionRecord[] = [];
    const inspections: string[] = [];
    const hookErrors: unknown[] = [];
    fault.setHandler(
      mcpHandler({
        'tools/call': (request) =>
          (request.rpc?.params?.arguments as { message?: unknown } | undefined)?.message === 'deny'
            ? reply.status(401, 'token rejected')
            : reply.json(200, answerRpc(request)),
      }),
    );
    const connection = defineMcpClientConnection({
      name: 'guarded',
      transport: { url: fault.url, headers: { 'x-api-key': STATIC_KEY } },
      token: () => TOKEN,
      observe: (record) => records.push(record),
      inspect: (event: InspectionEvent) => {
        // Snapshot and event carry every payload; the actor ref itself is reduced to its id.
        const {
          type,
          event: sent,
          snapshot,
        } = event as InspectionEvent & {
          event?: unknown;
          snapshot?: unknown;
        };
        inspections.push(serialize({ type, event: sent, snapshot }));
      },
    });
    const before = fault.count();
    const tools = await mountConnections([connection], {
      observe: (record) => mountRecords.push(record),
    });
    const echo = toolNamed(tools, 'echo');

    const ok = await runTool(echo, { message: 'hello' }, { source: 'agent' });
    const denied = await runTool(echo, { message: 'deny' }, { source: 'agent' });
    expect(ok.ok).toBe(true);
    expect(denied).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    const cause = toolCauseFromResult(denied);
    expect(cause).toBeInstanceOf(ConnectionAuthorizationRequiredError);

    const toolSet = mountAgent({
      runtimeTools: tools,
      hooks: { onToolError: (info) => void hookErrors.push(info.error) },
    });
    const modelOk = await toolSet.echo?.execute({ message: 'agent' }, { toolCallId: 'c1' });
    const modelError = await toolSet.echo?.execute({ message: 'deny' }, { toolCallId: 'c2' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(modelOk).toEqual({ content: [{ type: 'text', text: 'Echo: agent' }] });
    expect(isAgentToolError(modelError)).toBe(true);
    expect(hookErrors).toHaveLength(1);
    expect(hookErrors[0]).toBeInstanceOf(ConnectionAuthorizationRequiredError);

    // Every request carried both secrets, so the checks below are not vacuous.
    const sent = fault.requests.slice(before);
    // Discovery: the stateless probe and the three of the 2025 wire; then four calls of three.
    expect(sent.length).toBe(4 + 3 * 4);
    expect(
      sent.every(
        (request) =>
          request.headers.authorization === `Bearer ${TOKEN}` &&
          request.headers['x-api-key'] === STATIC_KEY,
      ),
    ).toBe(true);
    expect(records.length).toBeGreaterThan(0);
    expect(mountRecords).toEqual(records);
    expect(inspections.length).toBeGreaterThan(0);
    // Inspection saw contexts (header names, redacted values) and actor outputs (the echo).
    const inspected = inspections.join('\n');
    expect(inspected).toContain('"x-api-key":"[redacted]"');
    expect(inspected).toContain('"token":"[redacted]"');
    expect(inspected).toContain('Echo: hello');

    const surfaces: [string, string][] = [
      ['error message', (cause as Error).message],
      ['raw error JSON', serialize(cause)],
      ['success ToolResult', serialize(ok)],
      ['failure ToolResult', serialize(denied)],
      ['transition records', serialize(records)],
      ['inspection events', inspections.join('\n')],
      ['model output on success', serialize(modelOk)],
      ['model error message', (modelError as Error).message],
      ['model error output', serialize((modelError as { output?: unknown }).output)],
    ];
    for (const [label, text] of surfaces) {
      expect({ label, hasToken: text.includes(TOKEN) }).toEqual({ label, hasToken: false });
      expect({ label, hasKey: text.includes(STATIC_KEY) }).toEqual({ label, hasKey: false });
    }
  });

  it('fails a call whose token provider throws with INTERNAL_SERVER_ERROR and hands the raw error to onToolError', async () => {
    const failure = new Error(`vault unreachable while fetching ${TOKEN}`);
    const connection = defineMcpClientConnection({
      name: 'vault',
      transport: { url: fault.url },
      token: (context) => {
        if (context === undefined) return 'tok-discovery';
        throw failure;
      },
    });
    const tools = await mountConnections([connection]);
    const before = fault.count();
    const errors: unknown[] = [];
    const afterErrors: unknown[] = [];
    const result: ToolResult = await runTool(
      toolNamed(tools, 'echo'),
      { message: 'hi' },
      {
        source: 'agent',
        context: { principal: 'A' },
        hooks: {
          onToolError: (info) => void errors.push(info.error),
          afterToolCall: (info) => void afterErrors.push(info.error),
        },
      },
    );
    expect(result).toEqual({
      ok: false,
      code: 'INTERNAL_SERVER_ERROR',
      details: { message: 'Internal server error' },
      retryable: false,
    });
    expect(errors).toEqual([failure]);
    expect(errors[0]).toBe(failure);
    expect(afterErrors[0]).toBe(failure);
    expect(toolCauseFromResult(result)).toBe(failure);
    expect(serialize(result)).not.toContain(TOKEN);
    expect(methodsOf(fault.requests.slice(before))).toEqual([]);
  });
});
