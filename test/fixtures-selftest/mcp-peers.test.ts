import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAIL_TOOL_PAYLOAD,
  type McpPeers,
  PEER_TOOL_NAMES,
  startMcpPeers,
} from '../fixtures/mcp-peers.js';
import { extraHandles, handleCounts } from './stream-reading.js';

let peers: McpPeers;

beforeAll(async () => {
  peers = await startMcpPeers();
});

afterAll(async () => {
  await peers.close();
});

function bearer(token: string) {
  return { requestInit: { headers: { authorization: `Bearer ${token}` } } };
}

describe('streamable HTTP peers', () => {
  it.each(['/sessionless-json', '/sessionless-sse', '/stateful'])(
    'serves list, echo and whoami on %s',
    async (path) => {
      const client = new Client({ name: 'selftest', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(peers.url(path)), bearer('t-1'));
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual([...PEER_TOOL_NAMES].sort());
        const echo = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
        expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
        expect(echo.structuredContent).toEqual({ echoed: 'hi' });
        const whoami = await client.callTool({ name: 'whoami', arguments: {} });
        expect(whoami.structuredContent).toEqual({ authorization: 'Bearer t-1' });
      } finally {
        await client.close();
      }
    },
  );

  it('returns add sums, fail errors and big texts', async () => {
    const client = new Client({ name: 'selftest', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(peers.url('/sessionless-json'))),
    );
    try {
      const add = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(add.structuredContent).toEqual({ sum: 5 });
      const fail = await client.callTool({ name: 'fail', arguments: {} });
      expect(fail.isError).toBe(true);
      expect(fail.content).toEqual([{ type: 'text', text: JSON.stringify(FAIL_TOOL_PAYLOAD) }]);
      expect(fail.structuredContent).toEqual(FAIL_TOOL_PAYLOAD);
      const big = await client.callTool({ name: 'big', arguments: { bytes: 70_000 } });
      expect(big.content).toEqual([{ type: 'text', text: 'x'.repeat(70_000) }]);
      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      expect(whoami.structuredContent).toEqual({ authorization: null });
    } finally {
      await client.close();
    }
  });

  it('records a stateful session and its DELETE', async () => {
    const before = peers.sessions;
    const client = new Client({ name: 'selftest', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(peers.url('/stateful')));
    await client.connect(transport);
    expect(transport.sessionId).toEqual(expect.any(String));
    expect(peers.sessions.opened).toBe(before.opened + 1);
    // The SDK client opens the standalone GET stream after the 202 to notifications/initialized.
    await expect.poll(() => peers.openStreams()).toBe(1);
    await transport.terminateSession();
    await client.close();
    expect(peers.sessions.deleted).toBe(before.deleted + 1);
    expect(peers.sessions.deletesSucceeded).toBe(before.deletesSucceeded + 1);
    expect(peers.sessions.active).toBe(before.active);
  });

  it('logs methods, JSON-RPC methods, headers and statuses', async () => {
    peers.resetLog();
    const client = new Client({ name: 'selftest', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(peers.url('/sessionless-json')), bearer('t-2')),
    );
    await client.close();
    const posts = peers.log.filter((entry) => entry.method === 'POST');
    expect(posts.map((entry) => [entry.rpcMethods, entry.status])).toEqual([
      [['initialize'], 200],
      [['notifications/initialized'], 202],
    ]);
    expect(posts[0]?.headers.authorization).toBe('Bearer t-2');
    const get = await fetch(peers.url('/sessionless-json'), {
      headers: { accept: 'text/event-stream' },
    });
    await get.body?.cancel();
    expect(get.status).toBe(405);
    expect(peers.log.at(-1)).toMatchObject({
      method: 'GET',
      path: '/sessionless-json',
      status: 405,
    });
  });

  it('aborts the slow handler signal when the client goes away', async () => {
    const before = peers.abortedToolSignals;
    const controller = new AbortController();
    const response = fetch(peers.url('/sessionless-json'), {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow', arguments: { ms: 5_000 } },
      }),
    });
    await expect.poll(() => peers.log.at(-1)?.rpcMethods).toEqual(['tools/call']);
    controller.abort();
    await expect(response).rejects.toThrow();
    await expect.poll(() => peers.abortedToolSignals).toBe(before + 1);
  });
});

describe('legacy HTTP+SSE peers', () => {
  it('serves echo over SSEClientTransport on /legacy-404 and counts the open stream', async () => {
    const client = new Client({ name: 'selftest', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(peers.url('/legacy-404'))));
    try {
      expect(peers.openStreams()).toBe(1);
      const echo = await client.callTool({ name: 'echo', arguments: { message: 'old' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: old' }]);
    } finally {
      await client.close();
    }
    await expect.poll(() => peers.openStreams()).toBe(0);
  });

  it.each([
    ['/legacy-404', 404],
    ['/legacy-405', 405],
    ['/legacy-400', 400],
  ])('answers a POST to %s with %i', async (path, status) => {
    const response = await fetch(peers.url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(status);
    expect((await response.text()).length).toBeGreaterThan(0);
  });
});

describe('closing the peers', () => {
  it('leaves no server socket, listener or timer behind, even with a slow call in flight', async () => {
    const before = handleCounts();
    const own = await startMcpPeers();
    const client = new Client({ name: 'selftest', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(own.url('/legacy-only'))));
    const pending = client.callTool({ name: 'slow', arguments: { ms: 60_000 } });
    await expect
      .poll(() => own.log.some((entry) => entry.rpcMethods.includes('tools/call')))
      .toBe(true);
    await own.close();
    // The SDK's EventSource would keep reconnecting; closing the client settles the call.
    await client.close();
    await expect(pending).rejects.toThrow();
    expect(own.abortedToolSignals).toBe(1);
    await expect.poll(() => extraHandles(before)).toEqual({ sockets: 0, servers: 0, timers: 0 });
  });
});
