/**
 * A gateway in front of a server whose tools change (issue 47): mounted with a live catalog, it
 * serves the current list and tells its own clients of an upstream change: a 2025-11-25 client
 * (a v1 `McpServer` per session, `mountMcp(server, catalog)`: the SDK server sends
 * `notifications/tools/list_changed` on the session's GET stream) and a 2026-07-28 client (the v2
 * `createMcpHandler` with one line, `catalog.on('change', () => handler.notify.toolsChanged())`,
 * reaching its `subscriptions/listen` streams). An agent's tool set follows the same catalog.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, McpServer as V2McpServer } from '@modelcontextprotocol/server';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStatefulHost } from '../../conformance/stateful-http.js';
import { createGatewayRequestState, mountAgent, mountMcp } from '../../src/binding/index.js';
import {
  catalogCacheHint,
  defineMcpClientConnection,
  type LiveCatalog,
  watchConnections,
} from '../../src/connections/index.js';
import { type EvolvingServers, startEvolvingServers } from '../fixtures/evolving-servers.js';
import { serveWebHandler } from '../fixtures/http-helpers.js';
import { usage } from '../support/agent-model.js';
import { leakedHandles } from '../support/loopback-server.js';
import { until } from '../support/until.js';

const INFO = { name: 'downstream', version: '1.0.0' };
let upstream: EvolvingServers;
let catalog: LiveCatalog;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  upstream = await startEvolvingServers({ ttlMs: 60_000 });
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await catalog?.close();
  await upstream.reset();
});
afterAll(async () => {
  await upstream.close();
  expect(await leakedHandles()).toEqual([]);
});

/** A catalog that listens to the 2026 upstream, relisting as soon as it is told. */
async function watchUpstream(): Promise<LiveCatalog> {
  const connection = defineMcpClientConnection({
    name: 'up',
    transport: { url: upstream.url('/v2/stateless-only') },
  });
  catalog = await watchConnections([connection], { listen: true, minRefreshIntervalMs: 0 });
  await until(
    'the upstream stream is open',
    () => upstream.openStreams('/v2/stateless-only') === 1,
  );
  return catalog;
}

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);
const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('a gateway mounted with a live catalog', () => {
  it('tells its 2025-11-25 clients of an upstream change, and serves the new tool', async () => {
    const live = await watchUpstream();
    const gateway = await startStatefulHost(() => {
      const server = new V1McpServer({ name: 'gateway', version: '1.0.0' });
      mountMcp(server, live);
      return server;
    });
    closers.push(() => gateway.close());
    const client = new V1Client(INFO);
    const notified = { count: 0 };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified.count += 1;
    });
    await client.connect(new V1Transport(new URL(gateway.url)));
    closers.push(() => client.close());
    expect(names((await client.listTools()).tools)).toEqual(['alpha', 'beta']);

    const started = performance.now();
    await upstream.addTool('gamma', 'gamma v1');
    await until('the client is told', () => notified.count > 0);
    const told = performance.now() - started;

    expect(names((await client.listTools()).tools)).toEqual(['alpha', 'beta', 'gamma']);
    expect(textOf(await client.callTool({ name: 'gamma', arguments: {} }))).toBe('gamma:gamma v1');
    // Only the added tool was registered: one notification for one change.
    expect(notified.count).toBe(1);
    await upstream.removeTool('alpha');
    await until('the client is told again', () => notified.count === 2);
    expect(names((await client.listTools()).tools)).toEqual(['beta', 'gamma']);
    console.info(
      `gateway, 2025 client: upstream change to its notification in ${told.toFixed(0)} ms`,
    );
  });

  it('tells its 2026-07-28 clients through the handler, with one line the host writes', async () => {
    const live = await watchUpstream();
    const requestState = createGatewayRequestState();
    const handler = createMcpHandler(
      () => {
        const server = new V2McpServer(
          { name: 'gateway', version: '1.0.0' },
          { capabilities: { tools: { listChanged: true } }, requestState },
        );
        mountMcp(server, live, { requestState });
        return server;
      },
      { legacy: 'reject' },
    );
    const unsubscribe = live.on('change', () => handler.notify.toolsChanged());
    const served = await serveWebHandler(handler);
    closers.push(async () => {
      unsubscribe();
      await handler.close?.();
      await served.close();
    });
    const seen: string[][] = [];
    const client = new V2Client(INFO, {
      versionNegotiation: { mode: { pin: '2026-07-28' as const } },
      listChanged: {
        tools: { debounceMs: 0, onChanged: (_error, tools) => seen.push(names(tools ?? [])) },
      },
    });
    await client.connect(new V2Transport(new URL(`${served.origin}/mcp`)));
    closers.push(() => client.close());
    await until('the client listens', () => client.autoOpenedSubscription !== undefined);
    // The listen stream is acknowledged before a change can reach it.
    await new Promise((resolve) => setTimeout(resolve, 100));

    const started = performance.now();
    await upstream.changeTool('beta', { description: 'beta v2' });
    await until('the client sees the new list', () => seen.length === 1);
    const told = performance.now() - started;

    expect(seen).toEqual([['alpha', 'beta']]);
    const listed = await client.listTools(undefined, { cache: 'bypass' } as never);
    expect(listed.tools.find((tool) => tool.name === 'beta')?.description).toBe('beta v2');
    console.info(`gateway, 2026 client: upstream change to its new list in ${told.toFixed(0)} ms`);
  });

  it('gives its 2026 clients an honest ttlMs: what the upstream listing has left', async () => {
    const timed = await startEvolvingServers({ ttlMs: 30_000 });
    closers.push(() => timed.close());
    const connection = defineMcpClientConnection({
      name: 'timed',
      transport: { url: timed.url('/v2/stateless-only') },
    });
    const live = await watchConnections([connection]);
    closers.push(() => live.close());
    const requestState = createGatewayRequestState();
    const handler = createMcpHandler(
      () => {
        const server = new V2McpServer(
          { name: 'gateway', version: '1.0.0' },
          { requestState, cacheHints: { 'tools/list': catalogCacheHint(live) } },
        );
        mountMcp(server, live, { requestState });
        return server;
      },
      { legacy: 'reject' },
    );
    const served = await serveWebHandler(handler);
    closers.push(() => served.close());
    const client = new V2Client(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new V2Transport(new URL(`${served.origin}/mcp`)));
    closers.push(() => client.close());
    const age = () => live.describe().connections[0]?.ageMs ?? 0;
    const before = age();
    const listed = await client.listTools(undefined, { cache: 'bypass' } as never);
    const after = age();
    expect(listed.ttlMs).toBeLessThanOrEqual(30_000 - before);
    expect(listed.ttlMs).toBeGreaterThanOrEqual(30_000 - after);
    // The SDK v2 server's listing says private; a gateway keeps what its upstream said.
    expect(listed.cacheScope).toBe('private');
  });

  it('offers the AI SDK the catalog as it is at each step of one generateText', async () => {
    const live = await watchUpstream();
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step += 1;
        if (step === 2)
          return {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          };
        // Between the first step's answer and the second step, the upstream gains a tool.
        await upstream.addTool('gamma', 'gamma v1');
        await until('the catalog has gamma', () =>
          live.tools().some((tool) => tool.name === 'gamma'),
        );
        return {
          content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'alpha', input: '{}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      tools: mountAgent({ runtimeTools: live }),
      prompt: 'go',
      stopWhen: stepCountIs(2),
    });
    expect(result.text).toBe('done');
    expect(model.doGenerateCalls.map((call) => call.tools?.map((tool) => tool.name))).toEqual([
      ['alpha', 'beta'],
      ['alpha', 'beta', 'gamma'],
    ]);
  });

  it("lets an agent's tool set follow the catalog: each read sees the current tools", async () => {
    const live = await watchUpstream();
    const tools = mountAgent({ runtimeTools: live });
    expect(Object.keys(tools)).toEqual(['alpha', 'beta']);
    const before = tools.beta;

    await upstream.addTool('gamma', 'gamma v1');
    await until('gamma is in the set', () => 'gamma' in tools);
    expect(Object.keys(tools)).toEqual(['alpha', 'beta', 'gamma']);
    // Unchanged tools stay the definitions they were; the set is rebuilt around them.
    expect(tools.beta?.description).toBe(before?.description);
    expect(await tools.gamma?.execute({}, { toolCallId: 'call-1', messages: [] })).toMatchObject({
      content: [{ type: 'text', text: 'gamma:gamma v1' }],
    });

    await upstream.removeTool('alpha');
    await until('alpha is gone', () => !('alpha' in tools));
    expect(Object.keys(tools)).toEqual(['beta', 'gamma']);
  });
});
