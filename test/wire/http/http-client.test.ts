import { describe, expect, it } from 'vitest';
import { sendWithUndici } from '../../../src/wire/http/http-client.js';
import type { WireResponse } from '../../../src/wire/read/abortable-read.js';
import { type LoopbackServer, liveSignal, serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();

/** The whole body, read to its end. */
async function text(response: WireResponse): Promise<string> {
  let body = '';
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) body += String(chunk);
  return body;
}

/** What the server received of one request, as it arrived. */
interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

async function echoServer(received: Received[]): Promise<LoopbackServer> {
  return serve(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    received.push({ method: req.method, url: req.url, headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json', 'x-seen': 'a' });
    res.end('{"ok":true}');
  });
}

describe('sendWithUndici', () => {
  it('sends the method, the path with its query but not its fragment, the headers and the body', async () => {
    const received: Received[] = [];
    const server = await echoServer(received);
    const response = await sendWithUndici({
      url: new URL('/mcp/messages?sessionId=a%20b&x=1#not-sent', server.origin),
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
      body: '{"jsonrpc":"2.0"}',
      signal: liveSignal(),
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('X-Seen')).toBe('a');
    expect(await text(response)).toBe('{"ok":true}');
    expect(received).toHaveLength(1);
    expect(received[0]?.method).toBe('POST');
    expect(received[0]?.url).toBe('/mcp/messages?sessionId=a%20b&x=1');
    expect(received[0]?.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[0]?.body).toBe('{"jsonrpc":"2.0"}');
  });

  it('sends a GET without a body to a path without a query', async () => {
    const received: Received[] = [];
    const server = await echoServer(received);
    const response = await sendWithUndici({
      url: new URL('/sse', server.origin),
      method: 'GET',
      headers: { accept: 'text/event-stream' },
      signal: liveSignal(),
    });
    await text(response);
    expect(received.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'GET', url: '/sse', body: '' },
    ]);
    expect(received[0]?.headers['content-length']).toBeUndefined();
  });

  it('answers a redirect as it came and does not follow it', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const response = await sendWithUndici({
      url: new URL('/mcp', server.origin),
      method: 'POST',
      headers: {},
      body: '{}',
      signal: liveSignal(),
    });
    await text(response);
    expect(response.status).toBe(302);
    expect(response.ok).toBe(false);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(server.requests.map((request) => request.path)).toEqual(['/mcp']);
  });

  it('rejects with the exact abort reason while the head is awaited', async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const sent = sendWithUndici({
      url: new URL('/slow', server.origin),
      method: 'POST',
      headers: {},
      body: '{}',
      signal: controller.signal,
    });
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
    await server.requests[0]?.closed;
  });
});
