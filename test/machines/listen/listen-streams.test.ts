/**
 * The `listen` machine's streams on the wire, against the fault server: how each answer a server
 * may give ends a run that may fail once (`maxFailures: 1`): a server with no stream to give ends
 * it well (`offered: false`), a refusal or a broken answer with the typed error, and a stream
 * that listens tells one change per burst. On each wire: MCP 2026-07-28 `subscriptions/listen`,
 * a 2025 session's standalone GET, the legacy HTTP+SSE stream.
 */
import { describe, expect, it } from 'vitest';
import { makeListenActors } from '../../../src/machines/listen/listen.actors.js';
import { listenMachine } from '../../../src/machines/listen/listen.machine.js';
import type { ListenWire } from '../../../src/machines/listen/listen.types.js';
import { runMachine } from '../../../src/machines/run-machine.js';
import { createHostFence } from '../../../src/wire/index.js';
import {
  type FaultHandler,
  type FaultReply,
  type FaultServer,
  legacyMcpHandler,
  mcpHandler,
  mcpMessage,
  reply,
  sseMessageFrame,
} from '../../fixtures/fault-server.js';
import { useFaultServers } from '../../support/fault-suite.js';
import { until } from '../../support/until.js';

const { start } = useFaultServers();

/** Runs `listen` on `wire` against `server`, one failure allowed; `abort` ends it from outside. */
function listenTo(server: FaultServer, wire: ListenWire, token?: string) {
  const told = { changes: 0 };
  const abort = new AbortController();
  const machine =
    token === undefined
      ? listenMachine
      : listenMachine.provide({ actors: makeListenActors({ resolveToken: () => token }) });
  const run = runMachine(
    machine,
    {
      connectionName: 'faulty',
      wire,
      url: server.url,
      fence: createHostFence('faulty', new URL(server.url)),
      headers: {},
      resolvesToken: token !== undefined,
      firstEventMs: 5_000,
      maxFailures: 1,
      maxFrameBytes: 65_536,
      sink: { changed: () => (told.changes += 1) },
    },
    { signal: abort.signal },
  );
  // Settled either way; each test reads the outcome it expects.
  run.catch(() => undefined);
  return { run, told, abort };
}

const ACK = (honored: object) =>
  sseMessageFrame({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: honored, _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
  });
const CHANGED = sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
/** What a stream carries besides changes: a notification of another kind, an event with no data. */
const OTHER = sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
const EMPTY = 'event: message\ndata: \n\n';
const stateless = (listen: FaultHandler | FaultReply) =>
  mcpHandler({ 'subscriptions/listen': listen }, { stateless: true });

describe('listen on MCP 2026-07-28 (subscriptions/listen)', () => {
  it.each([
    ['405 (no such method here)', reply.status(405)],
    ['404', reply.status(404)],
    ['a JSON "method not found"', reply.json(200, mcpMessage.error(1, -32601, 'Method not found'))],
    ['an acknowledgement without tool list changes', reply.sse([ACK({})], { keepOpen: true })],
    [
      'a "method not found" on the stream',
      reply.sse([sseMessageFrame(mcpMessage.error(1, -32601, 'Method not found'))]),
    ],
    ['a 400 saying "method not found"', reply.json(400, mcpMessage.error(1, -32601, 'Unknown'))],
  ])('ends well, with nothing to listen to, on %s', async (_case, answer) => {
    const server = await start(stateless(answer));
    await expect(listenTo(server, 'stateless').run).resolves.toEqual({
      ok: true,
      offered: false,
      changes: 0,
    });
  });

  it.each([
    [
      'a 400 refusal',
      reply.json(400, mcpMessage.error(1, -32602, 'Invalid params')),
      { name: 'ConnectionRequestError', status: 400, operation: 'subscriptions/listen' },
    ],
    [
      'a JSON error answer instead of a stream',
      reply.json(200, mcpMessage.error(1, -32603, 'Subscription limit reached')),
      {
        name: 'ConnectionProtocolError',
        rpcCode: -32603,
        message: `Connection "faulty" answered subscriptions/listen without an SSE stream`,
      },
    ],
    [
      'a JSON-RPC error on the stream',
      reply.sse([sseMessageFrame(mcpMessage.error(1, -32603, 'Internal error'))]),
      {
        name: 'ConnectionProtocolError',
        rpcCode: -32603,
        message: `Connection "faulty" refused subscriptions/listen (-32603: Internal error)`,
      },
    ],
    [
      'an answer that is neither JSON nor a stream',
      reply.raw(200, { 'content-type': 'text/plain' }, ['listening']),
      { name: 'ConnectionProtocolError' },
    ],
    [
      'a stream that ends before its acknowledgement',
      reply.sse([]),
      {
        name: 'ConnectionProtocolError',
        message: `Connection "faulty" ended subscriptions/listen before acknowledging it`,
      },
    ],
  ])('ends with the typed failure on %s', async (_case, answer, failure) => {
    const server = await start(stateless(answer));
    await expect(listenTo(server, 'stateless').run).rejects.toMatchObject(failure);
  });

  it('sends the token its provider gives, and the 2026 framing, on the listen request', async () => {
    const server = await start(stateless(reply.status(405)));
    await expect(listenTo(server, 'stateless', 'listen-token').run).resolves.toMatchObject({
      offered: false,
    });
    const [request] = server.requests;
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer listen-token',
      'mcp-method': 'subscriptions/listen',
      'mcp-protocol-version': '2026-07-28',
    });
    expect(request?.json).toMatchObject({
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    });
  });

  it('ends with the network failure when nothing listens at the URL', async () => {
    const server = await start(stateless(reply.status(405)));
    await server.close();
    await expect(listenTo(server, 'stateless').run).rejects.toMatchObject({
      name: 'ConnectionNetworkError',
      operation: 'subscriptions/listen',
    });
  });

  it('tells one change for a burst, ignores what is not a tool list change, and stops on close', async () => {
    const server = await start(
      stateless(
        reply.sse(
          [
            ACK({ toolsListChanged: true }),
            ': keep-alive\n\n',
            EMPTY,
            OTHER,
            CHANGED,
            CHANGED,
            CHANGED,
          ],
          {
            keepOpen: true,
          },
        ),
      ),
    );
    const { run, told, abort } = listenTo(server, 'stateless');
    await until('the burst is told', () => told.changes === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(told.changes).toBe(1);
    // The one stream stayed open: nothing it carried ended it.
    expect(
      server.requests.filter((request) => request.rpc?.method === 'subscriptions/listen'),
    ).toHaveLength(1);
    abort.abort('catalog closed');
    await expect(run).rejects.toBe('catalog closed');
  });

  it('connects again after the server ends the stream well, and tells what it may have missed', async () => {
    const graceful = sseMessageFrame({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    const server = await start(stateless(reply.sse([ACK({ toolsListChanged: true }), graceful])));
    const { run, told, abort } = listenTo(server, 'stateless');
    // One reconnect, after its 1 s backoff: the second acknowledgement tells one change.
    await until('the reconnect told a change', () => told.changes === 1, 4_000);
    expect(
      server.requests.filter((request) => request.rpc?.method === 'subscriptions/listen'),
    ).toHaveLength(2);
    abort.abort('catalog closed');
    await expect(run).rejects.toBe('catalog closed');
  });
});

describe("listen on a 2025-11-25 session's standalone GET", () => {
  const offering = (overrides: Parameters<typeof mcpHandler>[0]) =>
    mcpHandler(
      {
        initialize: (request) =>
          reply.json(
            200,
            {
              jsonrpc: '2.0',
              id: request.rpc?.id ?? null,
              result: {
                protocolVersion: '2025-11-25',
                capabilities: { tools: { listChanged: true } },
                serverInfo: { name: 'fault-server', version: '1.0.0' },
              },
            },
            { 'mcp-session-id': 'listen-session' },
          ),
        ...overrides,
      },
      { sessionId: 'listen-session' },
    );
  const methods = (server: FaultServer) =>
    server.requests.map((request) => `${request.method} ${request.rpc?.method ?? ''}`.trim());

  it('ends well on a server that declares no tool list changes, with no GET and no session to end', async () => {
    const server = await start(mcpHandler());
    await expect(listenTo(server, 'session').run).resolves.toMatchObject({ offered: false });
    // Given time to send one, still no DELETE: the server named no session.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(methods(server)).toEqual(['POST initialize']);
  });

  it('ends well on a GET refused 405, and ends the session it opened', async () => {
    const server = await start(offering({ GET: reply.status(405) }));
    await expect(listenTo(server, 'session').run).resolves.toMatchObject({ offered: false });
    await until('the session is ended', () => methods(server).at(-1) === 'DELETE');
    expect(methods(server)).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'DELETE',
    ]);
    expect(server.requests.at(-1)?.headers['mcp-session-id']).toBe('listen-session');
  });

  it.each([
    [
      'an initialize refused 500',
      { initialize: reply.status(500) },
      { name: 'ConnectionRequestError', status: 500, operation: 'initialize' },
    ],
    [
      'an initialized notification refused 400',
      { 'notifications/initialized': reply.status(400) },
      { name: 'ConnectionRequestError', status: 400, operation: 'notifications/initialized' },
    ],
    [
      'an initialize answered by a stream that ends without the answer',
      { initialize: reply.sse([OTHER]) },
      {
        name: 'ConnectionProtocolError',
        message: `Connection "faulty" sent no answer to initialize`,
      },
    ],
    [
      'a GET answered with JSON',
      { GET: reply.json(200, {}) },
      {
        name: 'ConnectionProtocolError',
        message: `Connection "faulty" answered the standalone GET without text/event-stream`,
      },
    ],
  ])('ends with the typed failure on %s', async (_case, overrides, failure) => {
    const server = await start(offering(overrides));
    await expect(listenTo(server, 'session').run).rejects.toMatchObject(failure);
  });

  it('ends well on an initialize refused with "method not found"', async () => {
    const server = await start(
      offering({ initialize: reply.json(400, mcpMessage.error(1, -32601, 'Unknown')) }),
    );
    await expect(listenTo(server, 'session').run).resolves.toMatchObject({ offered: false });
  });

  it('opens the GET again when the server ends it, and tells what it may have missed', async () => {
    const server = await start(offering({ GET: reply.sse([': open\n\n']) }));
    const { run, told, abort } = listenTo(server, 'session');
    await until('the reconnect told a change', () => told.changes === 1, 4_000);
    expect(methods(server).filter((method) => method === 'GET')).toHaveLength(2);
    abort.abort('catalog closed');
    await expect(run).rejects.toBe('catalog closed');
  });

  it('tells a change from the GET stream, and ends the session with DELETE on close', async () => {
    const server = await start(
      offering({ GET: reply.sse([': open\n\n', EMPTY, OTHER, CHANGED], { keepOpen: true }) }),
    );
    const { run, told, abort } = listenTo(server, 'session');
    await until('the change is told', () => told.changes === 1);
    abort.abort('catalog closed');
    await expect(run).rejects.toBe('catalog closed');
    await until('the session is ended', () => methods(server).at(-1) === 'DELETE');
    expect(methods(server)).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'DELETE',
    ]);
  });
});

describe('listen on the legacy HTTP+SSE stream', () => {
  const listChanged = (declared: boolean) => ({
    initialize: (_request: unknown, _server: unknown, correct: unknown) => {
      const message = correct as { result: { capabilities: object } };
      return {
        frames: [
          sseMessageFrame({
            ...message,
            result: { ...message.result, capabilities: { tools: { listChanged: declared } } },
          }),
        ],
      };
    },
  });

  it('ends well on a GET refused 405', async () => {
    const server = await start(legacyMcpHandler({ http: { GET: reply.status(405) } }));
    await expect(listenTo(server, 'sse').run).resolves.toMatchObject({ offered: false });
  });

  it('ends well on a server that declares no tool list changes', async () => {
    const server = await start(legacyMcpHandler({ rpc: listChanged(false) }));
    await expect(listenTo(server, 'sse').run).resolves.toMatchObject({ offered: false });
  });

  it.each([
    [
      'a GET answered with JSON',
      { http: { GET: reply.json(200, {}) } },
      {
        name: 'ConnectionProtocolError',
        message: `Connection "faulty" answered the legacy SSE GET without text/event-stream`,
      },
    ],
    [
      'an initialize POST refused 500',
      { rpc: { initialize: () => ({ reply: reply.status(500) }) } },
      { name: 'ConnectionRequestError', status: 500, operation: 'initialize' },
    ],
  ])('ends with the typed failure on %s', async (_case, options, failure) => {
    const server = await start(legacyMcpHandler(options));
    await expect(listenTo(server, 'sse').run).rejects.toMatchObject(failure);
  });

  it('tells a change pushed on the stream after the handshake', async () => {
    const server = await start(
      legacyMcpHandler({
        rpc: {
          ...listChanged(true),
          'notifications/initialized': () => ({ frames: [EMPTY, OTHER, CHANGED] }),
        },
      }),
    );
    const { run, told, abort } = listenTo(server, 'sse');
    await until('the change is told', () => told.changes === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(told.changes).toBe(1);
    abort.abort('catalog closed');
    await expect(run).rejects.toBe('catalog closed');
  });
});
