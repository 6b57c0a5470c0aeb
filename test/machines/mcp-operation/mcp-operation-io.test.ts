/**
 * The I/O actors of `mcpOperation` on their own, against loopback servers: what one exchange
 * reads from an SSE answer (the last event id to resume after, a stateless answer without a
 * `resultType`), and what the legacy HTTP+SSE stream and the session's standalone stream tell
 * the machine, event by event, when they open, skip, end, are refused or fail.
 */
import { describe, expect, it } from 'vitest';
import { type AnyActorLogic, createActor, setup, toPromise } from 'xstate';
import { toolCallerOf } from '../../../src/binding/contract/caller.js';
import {
  type ExchangeInput,
  makeMcpOperationActors,
} from '../../../src/machines/mcp-operation/mcp-operation.actors.js';
import type {
  ActorBase,
  McpOperationEvent,
  RpcExchange,
} from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import { createHostFence } from '../../../src/wire/index.js';
import { type LoopbackServer, serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();
const actors = makeMcpOperationActors();
const scope = { connectionName: 'c', operation: 'tools/call', phase: 'call' } as const;

function baseOf(server: LoopbackServer): ActorBase {
  return {
    scope,
    fence: createHostFence('c', new URL(server.origin)),
    headers: {
      staticHeaders: {},
      token: undefined,
      sessionId: new SecretValue('s-1'),
      protocolVersion: '2025-11-25',
    },
    relay: undefined,
    callerCapabilities: {},
  };
}

const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } };
const RESULT = { content: [{ type: 'text', text: 'hi' }] };
const NOTICE = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });

/** A server answering every request with `status`, `type` and `body`, then ending it. */
function answering(status: number, type: string, body: string): Promise<LoopbackServer> {
  return serve((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
}

/** One `exchange` actor run: a tools/call POST to `server`, stateless when `framed`. */
async function exchange(server: LoopbackServer, framed = false): Promise<RpcExchange> {
  const input: ExchangeInput = {
    base: baseOf(server),
    reporter: { send: () => undefined },
    url: `${server.origin}/mcp`,
    method: 'POST',
    message: CALL,
    expectId: 1,
    maxBytes: 65_536,
    alreadyRead: 0,
    ...(framed ? { stateless: { mcpMethod: 'tools/call', mcpName: 'echo' } } : {}),
  };
  return toPromise(createActor(actors.exchange, { input }).start());
}

const sse = (...events: string[]): string => events.map((event) => `${event}\n\n`).join('');
const answerEvent = (result: object): string =>
  `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}`;

describe('one exchange read from an SSE answer', () => {
  it('resumes after the last id sent, which an event without an id does not clear', async () => {
    const server = await answering(
      200,
      'text/event-stream',
      sse(`id: e1\ndata: ${NOTICE}`, `data: ${NOTICE}`),
    );
    expect(await exchange(server)).toMatchObject({ kind: 'interrupted', lastEventId: 'e1' });
  });

  it('resumes from the start after an empty id, which clears it', async () => {
    const server = await answering(
      200,
      'text/event-stream',
      sse(`id: e1\ndata: ${NOTICE}`, `id\ndata: ${NOTICE}`),
    );
    const interrupted = await exchange(server);
    expect(interrupted.kind).toBe('interrupted');
    expect((interrupted as { lastEventId?: string }).lastEventId).toBeUndefined();
  });

  it.each([
    ['an SSE answer', 'text/event-stream', sse('id: p1\ndata:', answerEvent(RESULT))],
    [
      'a JSON answer',
      'application/json',
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: RESULT }),
    ],
  ])(
    'marks %s to a stateless call without a resultType untyped, and only that',
    async (_label, type, body) => {
      const stateless = await exchange(await answering(200, type, body), true);
      expect(stateless).toMatchObject({ kind: 'response', value: RESULT, untyped: true });
      const sessionful = await exchange(await answering(200, type, body), false);
      expect(sessionful).toMatchObject({ kind: 'response', value: RESULT });
      expect('untyped' in sessionful).toBe(false);
    },
  );
});

describe('an exchange stopped by its machine', () => {
  it('reports no progress after the stop, not even from the rest of a chunk read before it', async () => {
    let release: (() => void) | undefined;
    const relay = toolCallerOf(
      {
        capabilities: {},
        // The caller takes its time with a log message: the machine stops the exchange meanwhile.
        log: () =>
          new Promise<void>((resolve) => {
            release = resolve;
          }),
      },
      new AbortController().signal,
    );
    const log = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'x' },
    };
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok', progress: 1 },
    };
    // One write: the log message and the progress report arrive in one chunk.
    const server = await answering(
      200,
      'text/event-stream',
      sse(`data: ${JSON.stringify(log)}`, `data: ${JSON.stringify(progress)}`),
    );
    const reported: string[] = [];
    const input: ExchangeInput = {
      base: { ...baseOf(server), relay: new SecretValue(relay) },
      reporter: { send: (event) => void reported.push(event.type) },
      url: `${server.origin}/mcp`,
      method: 'POST',
      message: CALL,
      expectId: 1,
      progressToken: 'tok',
      maxBytes: 65_536,
      alreadyRead: 0,
    };
    const actor = createActor(actors.exchange, { input }).start();
    await expect.poll(() => release).toBeDefined();
    actor.stop();
    release?.();
    // The loop goes on from the log message in microtasks; two turns of the event loop settle it.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported.filter((type) => type === 'PROGRESS')).toEqual([]);
  });
});

/** Runs a stream actor under a parent that records what it is told, less the byte counts. */
function recordStream(logic: AnyActorLogic, input: unknown) {
  const events: McpOperationEvent[] = [];
  const parent = setup({ actors: { stream: logic } }).createMachine({
    invoke: { src: 'stream', input: () => input },
    on: {
      '*': {
        actions: ({ event }) => {
          const told = event as McpOperationEvent;
          if (told.type !== 'BYTES_READ') events.push(told);
        },
      },
    },
  });
  const actor = createActor(parent).start();
  return { events, types: () => events.map((event) => event.type), stop: () => actor.stop() };
}

describe('the legacy HTTP+SSE stream', () => {
  const legacyInput = (server: LoopbackServer) => ({
    base: baseOf(server),
    url: `${server.origin}/sse`,
    maxFrameBytes: 65_536,
    maxErrorBytes: 1_024,
  });

  it('reports its endpoint and each message, skips other events and id-only ones, and says when it ends', async () => {
    const server = await answering(
      200,
      'text/event-stream',
      sse(
        'event: endpoint\ndata: /messages?sessionId=1',
        'event: heartbeat\ndata: not json',
        'id: p1\ndata:',
        `event: message\ndata: ${NOTICE}`,
      ),
    );
    const stream = recordStream(actors.legacyStream, legacyInput(server));
    await expect.poll(stream.types).toEqual(['SSE_ENDPOINT', 'SSE_MESSAGE', 'STREAM_ENDED']);
    expect(stream.events[0]).toMatchObject({ url: `${server.origin}/messages?sessionId=1` });
    expect(stream.events[1]).toMatchObject({ message: JSON.parse(NOTICE) });
    stream.stop();
  });

  it('fails, saying why, when its GET is answered without text/event-stream', async () => {
    const server = await answering(200, 'application/json', '{}');
    const stream = recordStream(actors.legacyStream, legacyInput(server));
    await expect.poll(stream.types).toEqual(['STREAM_FAILED']);
    expect((stream.events[0] as { error: Error }).error.message).toBe(
      'Connection "c" answered the legacy SSE GET without text/event-stream',
    );
    stream.stop();
  });
});

describe("the session's standalone stream, held for a call", () => {
  const callerInput = (server: LoopbackServer) => ({
    base: baseOf(server),
    url: `${server.origin}/mcp`,
    progressToken: 'tok',
    maxFrameBytes: 65_536,
    maxAnswerBytes: 1_024,
  });

  it.each([
    ['refused (405)', 405, 'text/plain', 'Method Not Allowed'],
    ['answered with JSON', 200, 'application/json', '{}'],
  ])('is closed at once when %s, never opened', async (_label, status, type, body) => {
    const stream = recordStream(
      actors.callerStream,
      callerInput(await answering(status, type, body)),
    );
    await expect.poll(stream.types).toEqual(['CALLER_STREAM_CLOSED']);
    stream.stop();
  });

  it("opens, relays the call's progress past an id-only event, and closes when the server ends it", async () => {
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok', progress: 1, total: 2 },
    };
    const server = await answering(
      200,
      'text/event-stream',
      sse('id: p1\ndata:', `data: ${JSON.stringify(progress)}`),
    );
    const stream = recordStream(actors.callerStream, callerInput(server));
    await expect
      .poll(stream.types)
      .toEqual(['CALLER_STREAM_OPEN', 'PROGRESS', 'CALLER_STREAM_CLOSED']);
    expect(stream.events[1]).toMatchObject({ progress: 1, total: 2 });
    stream.stop();
  });

  it('closes, and the call goes on, when the stream fails on an answer that is not JSON', async () => {
    const server = await answering(200, 'text/event-stream', sse('data: not json'));
    const stream = recordStream(actors.callerStream, callerInput(server));
    await expect.poll(stream.types).toEqual(['CALLER_STREAM_OPEN', 'CALLER_STREAM_CLOSED']);
    stream.stop();
  });
});
