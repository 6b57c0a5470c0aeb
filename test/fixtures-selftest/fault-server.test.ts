import { afterEach, describe, expect, it } from 'vitest';
import {
  type FaultServer,
  reply,
  sseComment,
  sseFrame,
  startFaultServer,
} from '../fixtures/fault-server.js';
import { extraHandles, handleCounts, readUntil } from './stream-reading.js';

const started: FaultServer[] = [];

async function start(...args: Parameters<typeof startFaultServer>): Promise<FaultServer> {
  const server = await startFaultServer(...args);
  started.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

describe('fault server replies', () => {
  it('records requests with lowercased headers and the parsed JSON-RPC envelope', async () => {
    const server = await start(() => reply.json(200, { ok: true }, { 'x-extra': '1' }));
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { Authorization: 'Bearer abc', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(response.headers.get('x-extra')).toBe('1');
    expect(await response.json()).toEqual({ ok: true });
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/mcp',
      search: '',
      headers: { authorization: 'Bearer abc' },
      rpc: { id: 7, method: 'tools/list' },
    });
    expect(server.count((request) => request.rpc?.method === 'tools/list')).toBe(1);
  });

  it('writes CRLF frames and comments verbatim', async () => {
    const frames = [
      sseComment('hi', '\r\n'),
      sseFrame({ event: 'message', data: 'a\nb', id: '1' }, '\r\n'),
    ];
    const server = await start(() => reply.sse(frames));
    const response = await fetch(server.url);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(
      ': hi\r\n\r\nevent: message\r\nid: 1\r\ndata: a\r\ndata: b\r\n\r\n',
    );
  });

  it('writes raw chunks with delays and keeps the response open when asked', async () => {
    const server = await start(() =>
      reply.raw(200, { 'content-type': 'application/json' }, ['{"a"', ':1}'], {
        chunkDelayMs: 20,
        endAfter: false,
      }),
    );
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    const { text } = await readUntil(response, (soFar) => soFar === '{"a":1}');
    expect(text).toBe('{"a":1}');
    controller.abort();
    await expect.poll(() => server.closedRequests()).toBe(1);
  });

  it('answers redirects and bare statuses without following anything', async () => {
    const server = await start((request) =>
      request.path === '/mcp' ? reply.redirect(307, '/elsewhere') : reply.status(403, 'no'),
    );
    const redirected = await fetch(server.url, { redirect: 'manual' });
    expect(redirected.status).toBe(307);
    expect(redirected.headers.get('location')).toBe('/elsewhere');
    const refused = await fetch(`${server.origin}/other`);
    expect([refused.status, await refused.text()]).toEqual([403, 'no']);
  });

  it('hangs after the headers until the client aborts', async () => {
    const server = await start(() =>
      reply.hang({ afterHeaders: true, contentType: 'text/event-stream' }),
    );
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(server.openStreams()).toBe(1);
    controller.abort();
    await expect.poll(() => server.closedRequests()).toBe(1);
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it('drips bytes until aborted and leaves no socket or timer after close', async () => {
    const before = handleCounts();
    const server = await startFaultServer(() => reply.drip({ byte: ':', intervalMs: 5 }));
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    const { text } = await readUntil(response, (soFar) => soFar.length >= 3);
    expect(text).toMatch(/^:{3,}$/);
    controller.abort();
    await expect.poll(() => server.closedRequests()).toBe(1);
    await server.close();
    await expect.poll(() => extraHandles(before)).toEqual({ sockets: 0, servers: 0, timers: 0 });
  });

  it('keeps serving on one instance when another instance closes', async () => {
    const first = await start(() => reply.status(200, 'first'));
    const second = await startFaultServer(() => reply.status(200, 'second'));
    expect(first.port).not.toBe(second.port);
    await second.close();
    expect(await (await fetch(first.url)).text()).toBe('first');
    await expect(fetch(second.url)).rejects.toThrow();
  });

  it('resolves waitForRequest when a matching request arrives', async () => {
    const server = await start(() => reply.status(204));
    const seen = server.waitForRequest((request) => request.method === 'DELETE');
    await fetch(server.url, { method: 'DELETE' });
    await expect(seen).resolves.toMatchObject({ method: 'DELETE', path: '/mcp' });
  });
});
