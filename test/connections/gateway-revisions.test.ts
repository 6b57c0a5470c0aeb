/**
 * A gateway on either MCP SDK line (`mountMcp` on a v1 or a v2 `McpServer`) in front of a 2026
 * upstream (the v2 SDK's dual-revision server) and a 2025-only one (a v1 server), called by the v2 SDK
 * `Client` pinned to 2026-07-28 and in `'auto'`, and by the v1 SDK `Client`: the result, the
 * requests on both legs, progress, cancellation reaching the upstream, and an elicitation answered
 * (a 2026 client's through `input_required`, with the gateway's sealed state).
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnyRuntimeToolDefinition } from '../../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../../src/connections/index.js';
import { type McpV2Peers, startMcpV2Peers } from '../fixtures/mcp-v2-peers.js';
import {
  type LoggedServer,
  type SlowCounts,
  startV1Gateway,
  startV1Upstream,
  startV2Gateway,
} from '../fixtures/revision-gateways.js';

type Downstream = 'v2 pinned' | 'v2 known' | 'v2 auto' | 'v1';
type GatewayLine = 'v1' | 'v2';
type UpstreamRevision = '2026' | '2025';

let peers: McpV2Peers;
let v1Upstream: LoggedServer & { readonly slow: SlowCounts };
const gateways = new Map<string, LoggedServer>();
/** The 2025 session and server counters of each gateway (a v1 host's, a v2 gateway's legacy side). */
const sessionCounters = new Map<string, { openSessions(): number; liveServers(): number }>();

async function mount(name: string, url: string): Promise<readonly AnyRuntimeToolDefinition[]> {
  return mountConnections([defineMcpClientConnection({ name, transport: { url } })]);
}

beforeAll(async () => {
  peers = await startMcpV2Peers();
  v1Upstream = await startV1Upstream();
  const up2026 = await mount('u2026', peers.url('/dual'));
  const up2025 = await mount('u2025', v1Upstream.url);
  for (const [revision, tools] of [
    ['2026', up2026],
    ['2025', up2025],
  ] as const) {
    const v1 = await startV1Gateway(tools);
    const v2 = await startV2Gateway(tools);
    gateways.set(`v1 ${revision}`, v1);
    gateways.set(`v2 ${revision}`, v2);
    sessionCounters.set(`v1 ${revision}`, v1.host);
    sessionCounters.set(`v2 ${revision}`, v2);
  }
});
afterAll(async () => {
  for (const gateway of gateways.values()) await gateway.close();
  await v1Upstream.close();
  await peers.close();
});

function gatewayOf(line: GatewayLine, revision: UpstreamRevision): LoggedServer {
  const gateway = gateways.get(`${line} ${revision}`);
  if (gateway === undefined) throw new Error('no such gateway');
  return gateway;
}

function upstreamLines(revision: UpstreamRevision): string[] {
  return revision === '2026'
    ? peers.log.map((entry) => `${entry.method} ${entry.rpcMethods.join(',')}`.trim())
    : v1Upstream.lines();
}

function resetLogs(): void {
  peers.resetLog();
  v1Upstream.resetLog();
  for (const gateway of gateways.values()) gateway.resetLog();
}

interface Connected {
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { onprogress?: (progress: unknown) => void; signal?: AbortSignal },
  ): Promise<unknown>;
  /** Ends the session when the gateway opened one (a 2025 client's `DELETE`), then closes. */
  close(): Promise<void>;
}

const INFO = { name: 'downstream', version: '1.0.0' };
let knownDiscovery: Parameters<V2Client['connect']>[1];

/** A fresh downstream client of `url` that answers elicitation with `{ confirm: true }`. */
async function connect(kind: Downstream, url: string): Promise<Connected> {
  if (kind === 'v1') {
    const client = new V1Client(INFO, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    const transport = new V1Transport(new URL(url));
    await client.connect(transport);
    return {
      callTool: (name, args, options) =>
        client.callTool({ name, arguments: args }, undefined, options as never),
      close: async () => {
        if (transport.sessionId !== undefined) await transport.terminateSession();
        await client.close();
      },
    };
  }
  const mode = kind === 'v2 auto' ? ('auto' as const) : { pin: '2026-07-28' };
  const client = new V2Client(INFO, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode },
  });
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  const transport = new V2Transport(new URL(url));
  await client.connect(transport, kind === 'v2 known' ? knownDiscovery : undefined);
  return {
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, options as never),
    close: async () => {
      if (transport.sessionId !== undefined) await transport.terminateSession();
      await client.close();
    },
  };
}

/** Every pairing of gateway line, upstream revision and downstream client, but the one that cannot connect. */
const COMBOS: readonly [GatewayLine, UpstreamRevision, Downstream][] = [
  ['v1', '2026', 'v2 auto'],
  ['v1', '2026', 'v1'],
  ['v1', '2025', 'v2 auto'],
  ['v1', '2025', 'v1'],
  ['v2', '2026', 'v2 pinned'],
  ['v2', '2026', 'v2 known'],
  ['v2', '2026', 'v2 auto'],
  ['v2', '2026', 'v1'],
  ['v2', '2025', 'v2 pinned'],
  ['v2', '2025', 'v2 known'],
  ['v2', '2025', 'v2 auto'],
  ['v2', '2025', 'v1'],
];

const HANDSHAKE = ['POST initialize', 'POST notifications/initialized', 'GET'];
/** What a downstream client's connect costs at the gateway. */
function connectLines(line: GatewayLine, downstream: Downstream): string[] {
  if (downstream === 'v2 known') return [];
  if (downstream === 'v1') return HANDSHAKE;
  // The v1 gateway answers the probe 400 (no session), and the v2 client falls back to 2025.
  return line === 'v1' ? ['POST server/discover', ...HANDSHAKE] : ['POST server/discover'];
}
/**
 * A fresh client, once its connect's requests have all landed at the gateway (a 2025 client
 * opens its standalone GET stream after `connect` resolves).
 */
async function connectSettled(
  line: GatewayLine,
  downstream: Downstream,
  gateway: LoggedServer,
): Promise<Connected> {
  const client = await connect(downstream, gateway.url);
  const connected = connectLines(line, downstream);
  await vi.waitFor(() => expect(gateway.lines()).toEqual(connected));
  return client;
}

/** A 2025 downstream session is ended by the client's `DELETE`. */
const speaks2025 = (line: GatewayLine, downstream: Downstream) =>
  downstream === 'v1' || (line === 'v1' && downstream === 'v2 auto');
/** The 2025 upstream's session for one call: the caller declared elicitation, so the GET is held. */
const UPSTREAM_2025 = [...HANDSHAKE, 'POST tools/call'];

beforeAll(async () => {
  const probe = new V2Client(INFO, { versionNegotiation: { mode: 'auto' } });
  await probe.connect(new V2Transport(new URL(gatewayOf('v2', '2026').url)));
  const discover = probe.getDiscoverResult();
  await probe.close();
  if (discover === undefined) throw new Error('the v2 gateway negotiated no stateless revision');
  knownDiscovery = { prior: { kind: 'modern', discover } };
});

describe('a pinned 2026-07-28 client and a v1 gateway', () => {
  it('cannot connect: the v1 SDK server offers no 2026-07-28, and the pin never falls back', async () => {
    resetLogs();
    const error = await connect('v2 pinned', gatewayOf('v1', '2026').url).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(String(error)).toContain('did not offer pinned protocol version 2026-07-28');
    expect(gatewayOf('v1', '2026').lines()).toEqual(['POST server/discover']);
  });
});

describe('one call of a fresh client: the result, and the requests on both legs', () => {
  it.each(COMBOS)('%s gateway, %s upstream, %s client', async (line, revision, downstream) => {
    resetLogs();
    const gateway = gatewayOf(line, revision);
    const client = await connectSettled(line, downstream, gateway);
    const result = await client.callTool('echo', { message: 'hi' });
    await client.close();
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] });
    expect(result).not.toHaveProperty('isError');
    expect(gateway.lines()).toEqual([
      ...connectLines(line, downstream),
      'POST tools/call',
      ...(speaks2025(line, downstream) ? ['DELETE'] : []),
    ]);
    expect(upstreamLines(revision)).toEqual(
      revision === '2026' ? ['POST tools/call'] : [...UPSTREAM_2025, 'DELETE'],
    );
  });
});

describe('progress, then cancellation that reaches the upstream', () => {
  it.each(COMBOS)('%s gateway, %s upstream, %s client', async (line, revision, downstream) => {
    const gateway = gatewayOf(line, revision);
    resetLogs();
    const client = await connectSettled(line, downstream, gateway);
    resetLogs();
    const slow = revision === '2026' ? peers.slow : v1Upstream.slow;
    const aborted = slow.aborted;
    const controller = new AbortController();
    const progress: unknown[] = [];
    const call = client.callTool(
      'slow',
      {},
      {
        signal: controller.signal,
        onprogress: (report) => {
          progress.push(report);
          controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow(/abort/i);
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half' }]);
    await vi.waitFor(() => expect(slow.aborted).toBe(aborted + 1), { timeout: 5_000 });
    // A 2026 client cancels by closing its request; a 2025 client sends notifications/cancelled.
    expect(gateway.lines()).toEqual(
      speaks2025(line, downstream)
        ? ['POST tools/call', 'POST notifications/cancelled']
        : ['POST tools/call'],
    );
    await vi.waitFor(() =>
      expect(upstreamLines(revision)).toEqual(
        revision === '2026'
          ? ['POST tools/call']
          : [...UPSTREAM_2025, 'POST notifications/cancelled', 'DELETE'],
      ),
    );
    await client.close();
  });
});

/** How the gateway's client is asked: `input_required` and a retry (2026), or a request (2025). */
function confirmLines(line: GatewayLine, downstream: Downstream): string[] {
  return speaks2025(line, downstream)
    ? [...connectLines(line, downstream), 'POST tools/call', 'POST']
    : [...connectLines(line, downstream), 'POST tools/call', 'POST tools/call'];
}

describe('an elicitation the upstream asks, answered by the gateway client', () => {
  it.each(
    COMBOS.filter(
      ([line, revision, downstream]) =>
        !(line === 'v2' && revision === '2025' && !speaks2025(line, downstream)),
    ),
  )('%s gateway, %s upstream, %s client', async (line, revision, downstream) => {
    resetLogs();
    const gateway = gatewayOf(line, revision);
    const client = await connectSettled(line, downstream, gateway);
    const result = await client.callTool('confirm', { env: 'prod' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'deployed to prod' }] });
    expect(gateway.lines()).toEqual(confirmLines(line, downstream));
    // A 2026 upstream asks with input_required (a retry); a 2025 one on the call's stream.
    expect(upstreamLines(revision)).toEqual(
      revision === '2026'
        ? ['POST tools/call', 'POST tools/call']
        : [...UPSTREAM_2025, 'POST', 'DELETE'],
    );
    await client.close();
  });

  it.each(['v2 pinned', 'v2 auto'] as const)(
    'a 2025 upstream asking mid-call cannot be bridged to a 2026 client (%s): a clear error',
    async (downstream) => {
      resetLogs();
      const client = await connect(downstream, gatewayOf('v2', '2025').url);
      const result = await client.callTool('confirm', { env: 'prod' });
      await client.close();
      expect(result).toMatchObject({ isError: true });
      const text = (result as { content: { text: string }[] }).content[0]?.text ?? '';
      expect(JSON.parse(text)).toMatchObject({
        error: 'CONNECTION_PROTOCOL_ERROR',
        details: {
          message:
            'The upstream asked for elicitation/create in the middle of its call (MCP 2025-11-25), which a client on MCP 2026-07-28 cannot answer through this gateway.',
        },
      });
      expect(upstreamLines('2025')).toEqual([...UPSTREAM_2025, 'DELETE']);
    },
  );
});

describe('sessions and server instances after probing and fresh clients', () => {
  it.each(['v1', 'v2'] as const)(
    'a %s gateway keeps none once 22 fresh clients, probing or not, called and left',
    async (line) => {
      const gateway = gatewayOf(line, '2026');
      const counters = sessionCounters.get(`${line} 2026`);
      if (counters === undefined) throw new Error('no counters');
      const kinds: readonly Downstream[] =
        line === 'v1' ? ['v2 auto', 'v1', 'v2 pinned'] : ['v2 auto', 'v1', 'v2 pinned', 'v2 known'];
      let called = 0;
      let refused = 0;
      for (let index = 0; index < 22; index++) {
        const kind = kinds[index % kinds.length] ?? 'v1';
        const client = await connect(kind, gateway.url).catch(() => undefined);
        if (client === undefined) {
          refused += 1;
          continue;
        }
        await client.callTool('echo', { message: 'hi' });
        // While a 2025 client is connected, its session and its server are counted.
        const live = speaks2025(line, kind) ? 1 : 0;
        expect([counters.openSessions(), counters.liveServers()]).toEqual([live, live]);
        await client.close();
        called += 1;
      }
      // On the v1 gateway every third client is pinned to 2026-07-28: its probe is refused.
      expect({ called, refused }).toEqual(
        line === 'v1' ? { called: 15, refused: 7 } : { called: 22, refused: 0 },
      );
      await vi.waitFor(() =>
        expect({ sessions: counters.openSessions(), servers: counters.liveServers() }).toEqual({
          sessions: 0,
          servers: 0,
        }),
      );
    },
  );
});

/**
 * One MCP 2026-07-28 `tools/call` POSTed by hand to the v2 gateway in front of the 2026 upstream,
 * its `_meta` declaring `capabilities`; `headers` are added to the stateless ones.
 */
function postCall(
  name: string,
  params: Record<string, unknown>,
  options: {
    readonly id: number;
    readonly capabilities: Record<string, unknown>;
    readonly headers?: Record<string, string>;
  },
): Promise<Response> {
  return fetch(gatewayOf('v2', '2026').url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id,
      method: 'tools/call',
      params: {
        name,
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': options.capabilities,
          'io.modelcontextprotocol/clientInfo': INFO,
        },
      },
    }),
  });
}

describe("the gateway's sealed request state, on the raw wire", () => {
  let nextId = 1;
  async function post(name: string, params: Record<string, unknown>): Promise<unknown> {
    const response = await postCall(name, params, {
      id: nextId++,
      capabilities: { elicitation: {} },
    });
    return response.json();
  }
  const ANSWER = { confirm: { action: 'accept', content: { confirm: true } } };

  it('wraps the upstream state, refuses a tampered or foreign one, and unwraps a good one', async () => {
    resetLogs();
    const first = (await post('confirm', { arguments: { env: 'prod' } })) as {
      result: { resultType: string; inputRequests: object; requestState: string };
    };
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
    });
    const state = first.result.requestState;
    // The upstream's own state travels inside, never as it was.
    expect(state).not.toBe('asked:prod');
    expect(
      await post('confirm', {
        arguments: { env: 'prod' },
        inputResponses: ANSWER,
        requestState: `${state}x`,
      }),
    ).toMatchObject({
      error: { code: -32602 },
    });
    // Sealed for confirm with env prod: other arguments are refused before the upstream is asked.
    const foreign = (await post('confirm', {
      arguments: { env: 'dev' },
      inputResponses: ANSWER,
      requestState: state,
    })) as { result: { isError: boolean; content: { text: string }[] } };
    expect(foreign.result.isError).toBe(true);
    expect(JSON.parse(foreign.result.content[0]?.text ?? '{}')).toMatchObject({
      error: 'INVALID_REQUEST_STATE',
    });
    const retried = await post('confirm', {
      arguments: { env: 'prod' },
      inputResponses: ANSWER,
      requestState: state,
    });
    expect(retried).toMatchObject({
      result: { content: [{ type: 'text', text: 'deployed to prod' }] },
    });
    const upstream = peers.log.map((entry) => entry.body as { params: Record<string, unknown> });
    expect(upstream.map((body) => body.params.requestState)).toEqual([undefined, 'asked:prod']);
    expect(upstream[1]?.params.inputResponses).toEqual(ANSWER);
  });
});

describe("the v2 gateway's listing and header-mirrored arguments", () => {
  it('lists in the upstream order with caching hints, and mirrors an x-mcp-header argument on both legs', async () => {
    const client = new V2Client(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new V2Transport(new URL(gatewayOf('v2', '2026').url)));
    const first = await client.listTools(undefined, { cache: 'bypass' } as never);
    const second = await client.listTools(undefined, { cache: 'bypass' } as never);
    const names = first.tools.map((tool) => tool.name);
    expect(names).toEqual(['echo', 'fail', 'route', 'chatty', 'confirm', 'slow']);
    expect(second.tools.map((tool) => tool.name)).toEqual(names);
    expect(first).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    const route = first.tools.find((tool) => tool.name === 'route');
    expect(route?.inputSchema.properties).toMatchObject({
      region: { type: 'string', 'x-mcp-header': 'Region' },
    });
    resetLogs();
    const gateway = gatewayOf('v2', '2026');
    const result = await client.callTool({ name: 'route', arguments: { region: 'eu-west' } });
    await client.close();
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'served from eu-west' }] });
    expect(gateway.lines()).toEqual(['POST tools/call']);
    const [upstream] = peers.log;
    expect(upstream?.headers).toMatchObject({ 'mcp-name': 'route', 'mcp-param-region': 'eu-west' });
  });

  it('checks the mirrored header: one that disagrees with the body is refused -32020', async () => {
    resetLogs();
    const response = await postCall(
      'route',
      { arguments: { region: 'eu-west' } },
      { id: 1, capabilities: {}, headers: { 'mcp-param-region': 'us-east' } },
    );
    expect(await response.json()).toMatchObject({ error: { code: -32020 } });
    expect(peers.log).toEqual([]);
  });
});

describe('log messages through the gateway', () => {
  it.each(['v1', 'v2'] as const)(
    'a %s gateway relays a 2026 upstream log line to a 2025 client, and asks for logs upstream',
    async (line) => {
      const client = new V1Client(INFO);
      const logged: unknown[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logged.push(notification.params);
      });
      const transport = new V1Transport(new URL(gatewayOf(line, '2026').url));
      await client.connect(transport);
      resetLogs();
      const result = await client.callTool({ name: 'chatty', arguments: {} });
      await transport.terminateSession();
      await client.close();
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
      expect(logged).toEqual([
        { level: 'debug', data: 'looking' },
        { level: 'info', data: { found: 2 }, logger: 'search' },
      ]);
      const [call] = peers.log.map((entry) => entry.body as { params: { _meta: object } });
      expect(call?.params._meta).toMatchObject({ 'io.modelcontextprotocol/logLevel': 'debug' });
    },
  );

  it('a 2026 client that asks for no log level gets none, and none is asked upstream', async () => {
    resetLogs();
    const client = await connect('v2 pinned', gatewayOf('v2', '2026').url);
    const result = await client.callTool('chatty', {});
    await client.close();
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    const [call] = peers.log.map((entry) => entry.body as { params: { _meta: object } });
    expect(call?.params._meta).not.toHaveProperty('io.modelcontextprotocol/logLevel');
  });
});

describe("an upstream's -32021 through the v2 gateway", () => {
  it('refuses the 2026 client alike: JSON-RPC -32021 naming the capability it never declared', async () => {
    resetLogs();
    // A client that declares nothing calls a tool whose upstream asks for an elicitation.
    const response = await postCall(
      'confirm',
      { arguments: { env: 'prod' } },
      { id: 7, capabilities: {} },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      id: 7,
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
    // The upstream refused the gateway the same way, on its one request.
    expect(peers.log.map((entry) => `${entry.method} ${entry.rpcMethods} ${entry.status}`)).toEqual(
      ['POST tools/call 400'],
    );
  });
});
