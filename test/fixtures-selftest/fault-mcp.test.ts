import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FaultServer,
  legacyMcpHandler,
  mcp,
  mcpHandler,
  mcpMessage,
  reply,
  sseMessageFrame,
  startFaultServer,
} from '../fixtures/fault-server.js';
import { readUntil } from './stream-reading.js';

const started: FaultServer[] = [];

async function start(...args: Parameters<typeof startFaultServer>): Promise<FaultServer> {
  const server = await startFaultServer(...args);
  started.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

function postRpc(url: string, message: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });
}

function initialize(id: number, protocolVersion: string) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  };
}

describe('mcpHandler', () => {
  it('answers initialize with the requested supported version, else the latest', async () => {
    const server = await start(mcpHandler());
    const supported = await postRpc(server.url, initialize(1, '2025-03-26'));
    expect(supported.status).toBe(200);
    expect(await supported.json()).toEqual(
      mcpMessage.initializeResult(1, { protocolVersion: '2025-03-26' }),
    );
    const unknown = await postRpc(server.url, initialize(2, '1999-01-01'));
    expect(await unknown.json()).toMatchObject({
      id: 2,
      result: { protocolVersion: LATEST_PROTOCOL_VERSION, serverInfo: { name: 'fault-server' } },
    });
    const initialized = await postRpc(server.url, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(initialized.status).toBe(202);
  });

  it('serves an SDK client: list and echo', async () => {
    const server = await start(mcpHandler());
    const client = new Client({ name: 'selftest', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
      const echo = await client.callTool({ name: 'echo', arguments: { message: 'x' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: x' }]);
    } finally {
      await client.close();
    }
    expect(server.count((request) => request.method === 'GET')).toBeLessThanOrEqual(1);
  });

  it('lets an override answer one JSON-RPC method with 401', async () => {
    const server = await start(
      mcpHandler({
        'tools/call': () => reply.status(401, 'token expired', { 'www-authenticate': 'Bearer' }),
      }),
    );
    const list = await postRpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(await list.json()).toEqual(mcpMessage.toolsList(1));
    const call = await postRpc(server.url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'x' } },
    });
    expect([call.status, call.headers.get('www-authenticate'), await call.text()]).toEqual([
      401,
      'Bearer',
      'token expired',
    ]);
  });

  it('lets an override answer per HTTP method and adds the session id when configured', async () => {
    const server = await start(mcpHandler({ GET: reply.status(418) }, { sessionId: 'sess-1' }));
    expect((await fetch(server.url)).status).toBe(418);
    const init = await postRpc(server.url, initialize(1, LATEST_PROTOCOL_VERSION));
    expect(init.headers.get('mcp-session-id')).toBe('sess-1');
    await init.body?.cancel();
    expect((await fetch(server.url, { method: 'DELETE' })).status).toBe(200);
  });

  it('builds 200 JSON replies from the mcp helpers', () => {
    expect(mcp.initializeResult(3, { sessionId: 's' })).toMatchObject({
      kind: 'json',
      status: 200,
      headers: { 'mcp-session-id': 's' },
    });
    expect(mcp.error(4, -32000, 'boom').body).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32000, message: 'boom' },
    });
    expect(mcp.callResult(5, { content: [] }).body).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: { content: [] },
    });
  });
});

describe('legacyMcpHandler', () => {
  it('refuses the base POST and pushes the response onto the GET stream after a POST to /messages', async () => {
    const server = await start(legacyMcpHandler({ postStatus: 405 }));
    expect((await postRpc(server.url, initialize(1, LATEST_PROTOCOL_VERSION))).status).toBe(405);
    const controller = new AbortController();
    const stream = await fetch(server.url, { signal: controller.signal });
    const opened = await readUntil(stream, (text) => text.includes('\n\n'));
    expect(opened.text).toBe('event: endpoint\ndata: /messages\n\n');
    expect(server.openStreams()).toBe(1);
    const posted = await postRpc(`${server.origin}/messages`, {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/list',
    });
    expect(posted.status).toBe(202);
    const decoder = new TextDecoder();
    let pushed = '';
    while (!pushed.endsWith('\n\n')) {
      const chunk = await opened.reader.read();
      pushed += decoder.decode(chunk.value);
    }
    expect(pushed).toBe(sseMessageFrame(mcpMessage.toolsList(9)));
    controller.abort();
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it('serves an SDK SSE client, with an override pushing a wrong id before the right one', async () => {
    const server = await start(
      legacyMcpHandler({
        newline: '\r\n',
        rpc: {
          'tools/list': (_request, _server, correct) => ({
            frames: [
              sseMessageFrame({ ...correct, id: 999 }, { newline: '\r\n' }),
              sseMessageFrame(correct, { newline: '\r\n' }),
            ],
          }),
        },
      }),
    );
    const client = new Client({ name: 'selftest', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(server.url)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    } finally {
      await client.close();
    }
    expect(server.count((request) => request.path === '/messages')).toBe(3);
  });

  it('can keep the endpoint event back forever', async () => {
    const server = await start(
      legacyMcpHandler({ neverSendEndpoint: true, preFrames: [': hi\n\n'] }),
    );
    const controller = new AbortController();
    const stream = await fetch(server.url, { signal: controller.signal });
    const { text } = await readUntil(stream, (soFar) => soFar.length >= 6);
    expect(text).toBe(': hi\n\n');
    controller.abort();
    await expect.poll(() => server.closedRequests()).toBe(1);
  });
});
