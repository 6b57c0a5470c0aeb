/**
 * The evolving servers (`test/fixtures/evolving-servers.ts`) driven by the MCP SDK clients only:
 * a change made while clients are connected reaches the v2 client through its 2026
 * `subscriptions/listen` stream, the v1 client through its session's GET stream and through the
 * legacy SSE stream; the counters, the `ttlMs` hint, `dropStreams` and `close()` do what the
 * live-catalog tests rely on.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  type EvolvingPath,
  type EvolvingServers,
  type EvolvingServersOptions,
  startEvolvingServers,
} from '../fixtures/evolving-servers.js';
import { leakedHandles } from '../support/loopback-server.js';
import { until } from '../support/until.js';

const INFO = { name: 'selftest', version: '1.0.0' };
const PIN_2026 = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

let servers: EvolvingServers | undefined;
const closers: (() => Promise<void>)[] = [];

async function start(options?: EvolvingServersOptions): Promise<EvolvingServers> {
  servers = await startEvolvingServers(options);
  return servers;
}

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await servers?.close();
  servers = undefined;
});
afterAll(async () => {
  expect(await leakedHandles()).toEqual([]);
});

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

/** A v2 client pinned to 2026-07-28 that records the tool lists its listChanged handler sees. */
async function v2Client(servers: EvolvingServers, path: EvolvingPath) {
  const seen: string[][] = [];
  const client = new V2Client(INFO, {
    ...PIN_2026,
    listChanged: {
      tools: { debounceMs: 0, onChanged: (_error, tools) => seen.push(names(tools ?? [])) },
    },
  });
  await client.connect(new V2Transport(new URL(servers.url(path))));
  closers.push(() => client.close());
  return { client, seen };
}

/** A v1 client on a Streamable HTTP or SSE path that counts the list-changed notifications. */
async function v1Client(servers: EvolvingServers, path: EvolvingPath) {
  const url = new URL(servers.url(path));
  const client = new V1Client(INFO);
  const notified = { count: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notified.count += 1;
  });
  await client.connect(path === '/v1/sse' ? new SSEClientTransport(url) : new V1Transport(url));
  closers.push(() => client.close());
  return { client, notified };
}

describe('the 2026 listen stream (v2 server, v2 client)', () => {
  it('tells a listening client of an added tool, and the new tool answers', async () => {
    const servers = await start();
    const { client, seen } = await v2Client(servers, '/v2/stateless-only');
    await until('the listen stream is open', () => servers.openStreams('/v2/stateless-only') === 1);

    await servers.addTool('x');
    await until('the handler saw a list', () => seen.length === 1);

    expect(seen).toEqual([['alpha', 'beta', 'x']]);
    expect(servers.listCalls('/v2/stateless-only')).toBe(1);
    expect(textOf(await client.callTool({ name: 'x', arguments: {} }))).toBe('x:x v1');
    await client.close();
    await until(
      'the listen stream is closed',
      () => servers.openStreams('/v2/stateless-only') === 0,
    );
  });

  it('ends a listen stream on dropStreams, and the client sees a remote end', async () => {
    const servers = await start();
    const { client } = await v2Client(servers, '/v2/stateless-only');
    await until('the listen stream is open', () => servers.openStreams('/v2/stateless-only') === 1);
    const subscription = client.autoOpenedSubscription;

    expect(await servers.dropStreams('/v2/dual')).toBe(0);
    expect(await servers.dropStreams('/v2/stateless-only')).toBe(1);

    expect(servers.openStreams('/v2/stateless-only')).toBe(0);
    expect(await subscription?.closed).toBe('remote');
  });
});

describe('cache hints (v2 tools/list, 2026)', () => {
  it.each([
    ['carries the ttlMs option', { ttlMs: 60_000 }, 60_000],
    ['carries the SDK default without it', {}, 0],
  ])('%s', async (_title, options, ttlMs) => {
    const servers = await start(options);
    const client = new V2Client(INFO, PIN_2026);
    await client.connect(new V2Transport(new URL(servers.url('/v2/dual'))));
    closers.push(() => client.close());

    const listed = await client.listTools(undefined, { cache: 'bypass' } as never);

    expect(listed).toMatchObject({ ttlMs, cacheScope: 'private' });
    expect(names(listed.tools)).toEqual(['alpha', 'beta']);
  });
});

describe('the 2025 GET stream (v1 stateful server, v1 client)', () => {
  it('tells the session of a removed tool on its GET stream, whose list then lacks it', async () => {
    const servers = await start();
    const { client, notified } = await v1Client(servers, '/v1/stateful');
    await until('the GET stream is open', () => servers.openStreams('/v1/stateful') === 1);

    await servers.removeTool('alpha');
    await until('the notification arrived', () => notified.count === 1);

    expect(names((await client.listTools()).tools)).toEqual(['beta']);
    await client.close();
    await until('the GET stream is closed', () => servers.openStreams('/v1/stateful') === 0);
  });

  it('drops the GET stream on dropStreams; the client reopens it and is told again', async () => {
    const servers = await start();
    const { notified } = await v1Client(servers, '/v1/stateful');
    await until('the GET stream is open', () => servers.openStreams('/v1/stateful') === 1);
    const getsBefore = servers.log.filter((entry) => entry.httpMethod === 'GET').length;

    expect(await servers.dropStreams()).toBe(1);
    expect(servers.openStreams('/v1/stateful')).toBe(0);
    await until('a second GET is open', () => servers.openStreams('/v1/stateful') === 1);
    await servers.addTool('after');
    await until('the notification arrived', () => notified.count === 1);

    expect(servers.log.filter((entry) => entry.httpMethod === 'GET').length).toBe(getsBefore + 1);
  });
});

describe('the legacy SSE stream (v1 SSE server, v1 client)', () => {
  it('tells the session of a changed tool, whose new version answers', async () => {
    const servers = await start();
    const { client, notified } = await v1Client(servers, '/v1/sse');
    expect(servers.openStreams('/v1/sse')).toBe(1);

    await servers.changeTool('alpha', { description: 'alpha v2', addProperty: 'limit' });
    await until('the notification arrived', () => notified.count === 1);

    const [alpha] = (await client.listTools()).tools;
    expect(alpha).toMatchObject({
      name: 'alpha',
      description: 'alpha v2',
      inputSchema: { type: 'object', properties: { limit: { type: 'string' } } },
    });
    expect(textOf(await client.callTool({ name: 'alpha', arguments: { limit: '3' } }))).toBe(
      'alpha:alpha v2',
    );
  });

  // On this wire the answers travel on the SSE stream too, after every notification written
  // before them: once an answer is in, the count of notifications is final.
  it('sends nothing for { notify: false }, and n notifications for notifyBurst(n)', async () => {
    const servers = await start();
    const { client, notified } = await v1Client(servers, '/v1/sse');

    await servers.addTool('quiet', undefined, { notify: false });
    await servers.changeTool('alpha', { description: 'alpha v2' }, { notify: false });
    await servers.removeTool('beta', { notify: false });
    expect(names((await client.listTools()).tools)).toEqual(['alpha', 'quiet']);
    expect(notified.count).toBe(0);

    await servers.notifyBurst(3);
    expect(names((await client.listTools()).tools)).toEqual(['alpha', 'quiet']);
    expect(notified.count).toBe(3);
  });
});

/** What a call of a removed tool came back with: a result, or a JSON-RPC error's code and message. */
async function outcomeOf(call: Promise<unknown>) {
  return call.then(
    (result) => ({ result }),
    (error: { code?: unknown; message?: unknown }) => ({
      error: { code: error.code, message: error.message },
    }),
  );
}

describe('a removed tool, refused the way each SDK refuses an unknown tool', () => {
  const v2Refusal = { error: { code: -32602, message: 'Tool beta not found' } };
  const v1Refusal = {
    result: {
      content: [{ type: 'text', text: 'MCP error -32602: Tool beta not found' }],
      isError: true,
    },
  };
  it.each([
    ['/v2/dual', '2026', v2Refusal],
    ['/v2/stateless-only', '2026', v2Refusal],
    [
      '/v2/dual',
      '2025',
      { error: { code: -32602, message: 'MCP error -32602: Tool beta not found' } },
    ],
    ['/v1/stateful', '2025', v1Refusal],
    ['/v1/stateless', '2025', v1Refusal],
    ['/v1/sse', '2025', v1Refusal],
  ] as const)('%s (%s client)', async (path, revision, refusal) => {
    const servers = await start();
    const call = async () => {
      if (revision === '2026') {
        const { client } = await v2Client(servers, path);
        return client.callTool({ name: 'beta', arguments: {} });
      }
      const { client } = await v1Client(servers, path);
      return client.callTool({ name: 'beta', arguments: {} });
    };
    await servers.removeTool('beta', { notify: false });

    expect(await outcomeOf(call())).toEqual(refusal);
    expect(servers.callCalls(path)).toBe(1);
  });
});

describe('an empty start', () => {
  it('lists no tool, declares listChanged all the same and announces the first tool', async () => {
    const servers = await start({ tools: {} });
    const v2 = await v2Client(servers, '/v2/stateless-only');
    const v1 = await v1Client(servers, '/v1/stateful');
    await until(
      'the listen and GET streams are open',
      () =>
        servers.openStreams('/v2/stateless-only') === 1 &&
        servers.openStreams('/v1/stateful') === 1,
    );
    expect((await v1.client.listTools()).tools).toEqual([]);
    expect((await v2.client.listTools(undefined, { cache: 'bypass' } as never)).tools).toEqual([]);

    await servers.addTool('first');
    await until('both clients were told', () => v2.seen.length === 1 && v1.notified.count === 1);

    expect(v2.seen).toEqual([['first']]);
    expect(names((await v1.client.listTools()).tools)).toEqual(['first']);
  });
});

/** GET requests the servers have answered (a status was sent). */
const answeredGets = (servers: EvolvingServers) =>
  servers.log.filter((entry) => entry.httpMethod === 'GET' && entry.status !== undefined).length;

describe('counters and close', () => {
  it('logs and counts each request of a sessionless v1 client, on its own path only', async () => {
    const servers = await start();
    const { client } = await v1Client(servers, '/v1/stateless');
    await client.listTools();
    await client.listTools();
    await client.callTool({ name: 'beta', arguments: {} });

    // The client opens its GET stream without waiting for it: it races the POSTs that follow.
    await until('the GET was answered', () => answeredGets(servers) === 1);

    expect(servers.log.filter((entry) => entry.httpMethod === 'POST')).toEqual([
      { path: '/v1/stateless', httpMethod: 'POST', rpcMethod: 'initialize', status: 200 },
      {
        path: '/v1/stateless',
        httpMethod: 'POST',
        rpcMethod: 'notifications/initialized',
        status: 202,
      },
      { path: '/v1/stateless', httpMethod: 'POST', rpcMethod: 'tools/list', status: 200 },
      { path: '/v1/stateless', httpMethod: 'POST', rpcMethod: 'tools/list', status: 200 },
      { path: '/v1/stateless', httpMethod: 'POST', rpcMethod: 'tools/call', status: 200 },
    ]);
    expect(servers.log.filter((entry) => entry.httpMethod === 'GET')).toEqual([
      { path: '/v1/stateless', httpMethod: 'GET', rpcMethod: undefined, status: 405 },
    ]);
    expect(servers.listCalls('/v1/stateless')).toBe(2);
    expect(servers.callCalls('/v1/stateless')).toBe(1);
    expect(servers.listCalls('/v2/dual')).toBe(0);
    servers.resetLog();
    expect(servers.listCalls('/v1/stateless')).toBe(0);
  });

  it('serves a 2025 client on /v2/dual statelessly: no session, no stream (GET 405)', async () => {
    const servers = await start();
    const { client } = await v1Client(servers, '/v2/dual');
    await client.listTools();

    await until('the GET was answered', () => answeredGets(servers) === 1);

    expect(servers.log.filter((entry) => entry.httpMethod === 'GET')).toEqual([
      { path: '/v2/dual', httpMethod: 'GET', rpcMethod: undefined, status: 405 },
    ]);
    expect(
      servers.log
        .filter((entry) => entry.httpMethod === 'POST')
        .map(({ rpcMethod, status }) => [rpcMethod, status]),
    ).toEqual([
      ['initialize', 200],
      ['notifications/initialized', 202],
      ['tools/list', 200],
    ]);
    expect(servers.log).toHaveLength(4);
    expect(servers.listCalls('/v2/dual')).toBe(1);
    expect(servers.openStreams('/v2/dual')).toBe(0);
  });

  it('ends open streams gracefully on close() and leaves no socket or timer', async () => {
    const servers = await start();
    const { client } = await v2Client(servers, '/v2/dual');
    await until('the listen stream is open', () => servers.openStreams('/v2/dual') === 1);
    const subscription = client.autoOpenedSubscription;

    await servers.close();

    expect(await subscription?.closed).toBe('graceful');
    expect(servers.openStreams('/v2/dual')).toBe(0);
    await client.close();
    expect(await leakedHandles()).toEqual([]);
  });
});
