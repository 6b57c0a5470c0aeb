/**
 * What each `listen` stream reader reports to the machine, message by message, against the fault
 * server: a change only for `notifications/tools/list_changed` (never for another notification,
 * an empty event, a stray answer or a second `endpoint`), a server's request answered whatever
 * its id, and a refusal or a JSON-RPC error on the stream as the typed failure, exactly worded.
 * The readers are called as the `listenStream` actor calls them; the recorder stands in for the
 * machine, which owns every decision (`listen-streams.test.ts` runs the machine on them).
 */
import { describe, expect, it } from 'vitest';
import {
  deleteListenSession,
  readLegacyStream,
  readSessionStream,
} from '../../../src/machines/listen/listen.sessions.js';
import { readListenStream } from '../../../src/machines/listen/listen.streams.js';
import type {
  ListenStreamEvent,
  ListenStreamInput,
  ListenWire,
} from '../../../src/machines/listen/listen.types.js';
import { createHostFence, operationScope } from '../../../src/wire/index.js';
import {
  type FaultServer,
  type LegacyRpcOverride,
  legacyMcpHandler,
  mcpHandler,
  reply,
  sseFrame,
  sseMessageFrame,
} from '../../fixtures/fault-server.js';
import { useFaultServers } from '../../support/fault-suite.js';
import { until } from '../../support/until.js';

const { start } = useFaultServers();

const OPERATION = {
  stateless: 'subscriptions/listen',
  session: 'standalone-stream',
  sse: 'endpoint',
} as const;

/** A reader's input for `wire` on `server`, with a static header of the connection's. */
function streamInputOf(server: FaultServer, wire: ListenWire): ListenStreamInput {
  return {
    wire,
    scope: operationScope('faulty', OPERATION[wire]),
    url: server.url,
    fence: createHostFence('faulty', new URL(server.url)),
    headers: {},
    token: undefined,
    maxFrameBytes: 65_536,
  };
}

/** Starts the reader of `wire` on `server`; `events` is what it reported, in order. */
function read(server: FaultServer, wire: ListenWire) {
  const events: ListenStreamEvent[] = [];
  const abort = new AbortController();
  const input = streamInputOf(server, wire);
  const reader =
    wire === 'stateless'
      ? readListenStream
      : wire === 'session'
        ? readSessionStream
        : readLegacyStream;
  let settled = false;
  const reading = reader(input, abort.signal, (event) => events.push(event), undefined).finally(
    () => {
      settled = true;
    },
  );
  // Settled either way; each test reads what it expects.
  reading.catch(() => undefined);
  return { events, abort, reading, settled: () => settled };
}

/** The type of each event reported, in order. */
const typesOf = (events: readonly ListenStreamEvent[]) => events.map((event) => event.type);
/** The failure of a `STREAM_FAILED`, or `undefined`. */
const failureOf = (event: ListenStreamEvent | undefined) =>
  event?.type === 'STREAM_FAILED' ? event.failure : undefined;

const ACK = sseMessageFrame({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { notifications: { toolsListChanged: true } },
});
const CHANGED = sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
/** Every kind of message a stream carries that is not a tool list change. */
const NOT_CHANGES = [
  'event: message\ndata: \n\n',
  sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }),
  sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }),
  sseMessageFrame({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } }),
  sseMessageFrame({ jsonrpc: '2.0', params: { note: 'a message with no method' } }),
];
/** A server's `ping`; its answer, POSTed back, says the reader read every message before it. */
const ping = (id: number | string) => sseMessageFrame({ jsonrpc: '2.0', id, method: 'ping' });
const answered = (server: FaultServer, id: number | string) =>
  server.waitForRequest((request) => {
    const json = request.json as { id?: unknown; result?: unknown } | undefined;
    return request.method === 'POST' && json?.id === id && json.result !== undefined;
  });
/** Each POST's JSON-RPC method, or `answer <id>` for an answer to the server. */
const posts = (server: FaultServer) =>
  server.requests
    .filter((request) => request.method === 'POST')
    .map((request) => request.rpc?.method ?? `answer ${(request.json as { id: unknown }).id}`);

describe('the 2026-07-28 listen stream', () => {
  const stateless = (frames: readonly string[]) =>
    mcpHandler({ 'subscriptions/listen': reply.sse(frames) }, { stateless: true });

  it('reports no change for a stream that carries everything but a tool list change', async () => {
    const server = await start(stateless([ACK, ...NOT_CHANGES]));
    const { events, reading } = read(server, 'stateless');
    await reading;
    expect(typesOf(events)).toEqual(['OPENED', 'STREAM_ENDED']);
  });

  it('reports one change per tool list change among them', async () => {
    const server = await start(stateless([ACK, ...NOT_CHANGES, CHANGED, ...NOT_CHANGES, CHANGED]));
    const { events, reading } = read(server, 'stateless');
    await reading;
    expect(typesOf(events)).toEqual(['OPENED', 'CHANGED', 'CHANGED', 'STREAM_ENDED']);
  });

  it.each([
    [
      'a code that is not an integer',
      { code: 'busy', message: 'try later' },
      {
        message: 'Connection "faulty" refused subscriptions/listen (no code: try later)',
        rpcCode: undefined,
        rpcMessage: undefined,
      },
    ],
    [
      'no message',
      { code: -32603 },
      {
        message: 'Connection "faulty" refused subscriptions/listen (-32603: )',
        rpcCode: -32603,
        rpcMessage: '',
      },
    ],
    [
      'a message of 300 characters (200 in the violation, the whole in rpcMessage)',
      { code: -32603, message: 'x'.repeat(300) },
      {
        message: `Connection "faulty" refused subscriptions/listen (-32603: ${'x'.repeat(200)})`,
        rpcCode: -32603,
        rpcMessage: 'x'.repeat(300),
      },
    ],
  ])(
    'reports a JSON-RPC error on the stream with %s as the typed failure',
    async (_case, error, expected) => {
      const server = await start(
        stateless([ACK, sseMessageFrame({ jsonrpc: '2.0', id: 1, error })]),
      );
      const { events, reading } = read(server, 'stateless');
      await reading;
      expect(typesOf(events)).toEqual(['OPENED', 'STREAM_FAILED']);
      const failure = failureOf(events[1]);
      expect(failure?.error).toMatchObject({ name: 'ConnectionProtocolError', ...expected });
      expect(failure?.rpcCode).toBe(expected.rpcCode);
    },
  );
});

describe("a 2025-11-25 session's standalone GET", () => {
  const offering = (frames: readonly string[]) =>
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
        GET: reply.sse(frames),
      },
      { sessionId: 'listen-session' },
    );

  it("reports its session, no change for everything but a tool list change, and answers the server's ping on the session", async () => {
    const server = await start(offering([': open\n\n', ...NOT_CHANGES, ping('p')]));
    const { events, reading } = read(server, 'session');
    await reading;
    expect(typesOf(events)).toEqual(['SESSION_OPENED', 'OPENED', 'STREAM_ENDED']);
    const opened = events[0];
    expect(opened?.type === 'SESSION_OPENED' && opened.session.sessionId.reveal()).toBe(
      'listen-session',
    );
    expect(opened?.type === 'SESSION_OPENED' && opened.session.protocolVersion).toBe('2025-11-25');
    // The stream does not end its session: the machine does, in a state of its own.
    expect(server.requests.map((request) => request.method)).toEqual([
      'POST',
      'POST',
      'GET',
      'POST',
    ]);
    expect(posts(server)).toEqual(['initialize', 'notifications/initialized', 'answer p']);
    expect(server.requests[3]?.headers['mcp-session-id']).toBe('listen-session');
  });

  it('reports one change per tool list change among them', async () => {
    const server = await start(offering([...NOT_CHANGES, CHANGED, ...NOT_CHANGES]));
    const { events, reading } = read(server, 'session');
    await reading;
    expect(typesOf(events)).toEqual(['SESSION_OPENED', 'OPENED', 'CHANGED', 'STREAM_ENDED']);
  });

  it('ends the session with one DELETE carrying its id and its version', async () => {
    const server = await start(offering([]));
    const { events, reading } = read(server, 'session');
    await reading;
    const opened = events.find((event) => event.type === 'SESSION_OPENED');
    if (opened?.type !== 'SESSION_OPENED') throw new Error('no session reported');
    const before = server.requests.length;
    await deleteListenSession(
      streamInputOf(server, 'session'),
      opened.session,
      new AbortController().signal,
      undefined,
    );
    const sent = server.requests.slice(before);
    expect(sent.map((request) => request.method)).toEqual(['DELETE']);
    expect(sent[0]?.headers).toMatchObject({
      'mcp-session-id': 'listen-session',
      'mcp-protocol-version': '2025-11-25',
    });
    expect(sent[0]?.headers.authorization).toBeUndefined();
  });
});

describe('the legacy HTTP+SSE stream', () => {
  /** The initialize answered with tool list changes declared; `initialized` as given. */
  const legacy = (initialized: LegacyRpcOverride) =>
    legacyMcpHandler({
      rpc: {
        initialize: (_request, _server, correct) => {
          const message = correct as { result: { capabilities: object } };
          return {
            frames: [
              sseMessageFrame({
                ...message,
                result: { ...message.result, capabilities: { tools: { listChanged: true } } },
              }),
            ],
          };
        },
        'notifications/initialized': initialized,
      },
    });

  it.each([
    ['everything but a tool list change', NOT_CHANGES, []],
    // A second endpoint changes nothing: the session has its handshake.
    ['a second endpoint event', [sseFrame({ event: 'endpoint', data: '/messages?again' })], []],
    // Only the initialize's answer is read as one; an answer to no request of ours is not.
    [
      'an answer to no request of ours',
      [sseMessageFrame({ jsonrpc: '2.0', id: 99, result: {} })],
      [],
    ],
    // A request whose id is the initialize's is still a request: it is answered.
    ["a server's ping that takes the initialize's id", [ping(1)], ['answer 1']],
  ] as const)(
    'after the handshake, reports no change for %s, and reads on',
    async (_case, frames, answers) => {
      const server = await start(legacy(() => ({ frames: [...frames, ping('end')] })));
      const { events, abort, reading } = read(server, 'sse');
      await answered(server, 'end');
      abort.abort('stopped');
      await reading.catch(() => undefined);
      expect(typesOf(events)).toEqual(['OPENED']);
      expect(posts(server)).toEqual([
        'initialize',
        'notifications/initialized',
        ...answers,
        'answer end',
      ]);
    },
  );

  it('reports one change per tool list change among them', async () => {
    const server = await start(
      legacy(() => ({ frames: [...NOT_CHANGES, CHANGED, ...NOT_CHANGES, CHANGED, ping('end')] })),
    );
    const { events, abort, reading } = read(server, 'sse');
    await answered(server, 'end');
    abort.abort('stopped');
    await reading.catch(() => undefined);
    expect(typesOf(events)).toEqual(['OPENED', 'CHANGED', 'CHANGED']);
  });

  it('reports the end of a stream the server closes', async () => {
    // A plain SSE answer to the GET: its endpoint event, then the end (no answer is pushed).
    const server = await start(
      legacyMcpHandler({
        http: { GET: reply.sse([sseFrame({ event: 'endpoint', data: '/messages' })]) },
      }),
    );
    const { events, reading } = read(server, 'sse');
    await reading;
    expect(typesOf(events)).toEqual(['STREAM_ENDED']);
    expect(posts(server)).toEqual(['initialize']);
  });

  it('reports a refused notifications/initialized as the typed failure, and reads no further', async () => {
    const server = await start(legacy(() => ({ reply: reply.status(400, 'no') })));
    const { events, settled } = read(server, 'sse');
    // The stream stays open: the reader returns on its own after the refusal.
    await until('the reader returns', settled);
    expect(typesOf(events)).toEqual(['STREAM_FAILED']);
    expect(failureOf(events[0])).toMatchObject({
      status: 400,
      error: {
        name: 'ConnectionRequestError',
        status: 400,
        operation: 'notifications/initialized',
      },
    });
  });
});
