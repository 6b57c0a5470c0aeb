import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { WireResponse } from '../../src/wire/abortable-read.js';
import { readBoundedText } from '../../src/wire/bounded-body.js';
import { ConnectionUrlError } from '../../src/wire/errors.js';
import {
  fetchWithoutRedirects,
  type WireRequest,
  type WireSend,
} from '../../src/wire/fetch-guarded.js';
import type { OperationScope } from '../../src/wire/operation.js';
import { createHostFence, type HostFence } from '../../src/wire/url-fence.js';
import {
  type LoopbackServer,
  leakedHandles,
  liveSignal,
  startLoopbackServer,
} from './loopback-server.js';

let servers: LoopbackServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

afterAll(async () => {
  expect(await leakedHandles()).toEqual([]);
});

async function serve(...args: Parameters<typeof startLoopbackServer>): Promise<LoopbackServer> {
  const server = await startLoopbackServer(...args);
  servers.push(server);
  return server;
}

/** The operation a request serves, its fence, and the sender it goes through. */
interface Wire {
  readonly scope: OperationScope;
  readonly fence: HostFence;
  readonly send?: WireSend;
}

const SCOPE: OperationScope = { connectionName: 'c', operation: 'initialize', phase: 'discovery' };

function wireFor(server: LoopbackServer): Wire {
  return {
    scope: SCOPE,
    fence: createHostFence('c', new URL(server.origin)),
  };
}

function send(request: WireRequest, wire: Wire): Promise<WireResponse> {
  return fetchWithoutRedirects(request, wire.scope, wire.fence, wire.send);
}

describe('fetchWithoutRedirects', () => {
  it('returns a 2xx response with its body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const response = await send(
      {
        url: new URL('/mcp', server.origin),
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: liveSignal(),
      },
      wireFor(server),
    );
    expect(response.status).toBe(200);
    expect(
      JSON.parse(
        await readBoundedText(response, { ...SCOPE, maxBytes: 100, signal: liveSignal() }),
      ),
    ).toEqual({ ok: true });
    expect(server.requests.map((request) => request.method)).toEqual(['POST']);
  });

  it('refuses a 307 to the same host and cancels its body, freeing the request', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      // A body that never ends: only cancellation can free this request.
      res.write('redirecting...');
    });
    const request = send(
      {
        url: new URL('/mcp', server.origin),
        method: 'POST',
        headers: {},
        body: '{}',
        signal: liveSignal(),
      },
      wireFor(server),
    );
    await expect(request).rejects.toBeInstanceOf(ConnectionUrlError);
    await expect(request).rejects.toThrow(/refused a redirect/);
    await server.requests[0]?.closed;
    expect(server.requests.map((seen) => seen.path)).toEqual(['/mcp']);
  });

  it.each([301, 302, 303, 308])('refuses a %i redirect without following it', async (status) => {
    const server = await serve((req, res) => {
      if (req.url === '/mcp') res.writeHead(status, { location: '/target' }).end();
      else res.writeHead(200).end('followed');
    });
    await expect(
      send(
        { url: new URL('/mcp', server.origin), method: 'GET', headers: {}, signal: liveSignal() },
        wireFor(server),
      ),
    ).rejects.toBeInstanceOf(ConnectionUrlError);
    expect(server.requests.map((seen) => seen.path)).toEqual(['/mcp']);
  });

  it('refuses an off-fence URL before any request reaches the server', async () => {
    const fenced = await serve((_req, res) => res.writeHead(200).end());
    const foreign = await serve((_req, res) => res.writeHead(200).end());
    const attempt = send(
      {
        url: new URL('/mcp?token=SECRET', foreign.origin),
        method: 'POST',
        headers: { authorization: 'Bearer SECRET' },
        body: '{}',
        signal: liveSignal(),
      },
      wireFor(fenced),
    );
    await expect(attempt).rejects.toBeInstanceOf(ConnectionUrlError);
    await expect(attempt).rejects.not.toThrow(/SECRET/);
    await expect(attempt).rejects.toMatchObject({
      connectionName: 'c',
      operation: 'initialize',
      phase: 'discovery',
    });
    expect(foreign.requests).toHaveLength(0);
    expect(fenced.requests).toHaveLength(0);
  });

  it('sends to an allowed host outside the connection host', async () => {
    const other = await serve((_req, res) => res.writeHead(204).end());
    const wire: Wire = {
      scope: { connectionName: 'c', operation: 'openapi/call', phase: 'call' },
      fence: createHostFence('c', new URL('http://connection.example.test/'), [other.host]),
    };
    const response = await send(
      { url: new URL('/x', other.origin), method: 'DELETE', headers: {}, signal: liveSignal() },
      wire,
    );
    expect(response.status).toBe(204);
  });

  it('rejects with the exact abort reason when aborted before headers arrive', async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const reason = new Error('caller stopped');
    const request = send(
      {
        url: new URL('/mcp', server.origin),
        method: 'GET',
        headers: {},
        signal: controller.signal,
      },
      wireFor(server),
    );
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort(reason);
    await expect(request).rejects.toBe(reason);
    await server.requests[0]?.closed;
  });

  it('rejects with the exact reason and sends nothing when already aborted', async () => {
    const server = await serve((_req, res) => res.writeHead(200).end());
    const reason = new Error('already stopped');
    await expect(
      send(
        {
          url: new URL('/mcp', server.origin),
          method: 'GET',
          headers: {},
          signal: AbortSignal.abort(reason),
        },
        wireFor(server),
      ),
    ).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('stops on abort even when an injected sender ignores the signal', async () => {
    let calls = 0;
    const ignoringSend: WireSend = () => {
      calls += 1;
      return new Promise<never>(() => undefined);
    };
    const controller = new AbortController();
    const reason = new Error('deadline state left');
    const request = send(
      {
        url: new URL('http://h.example.test/'),
        method: 'GET',
        headers: {},
        signal: controller.signal,
      },
      {
        scope: { connectionName: 'c', operation: 'tools/list', phase: 'discovery' },
        fence: createHostFence('c', new URL('http://h.example.test/')),
        send: ignoringSend,
      },
    );
    controller.abort(reason);
    await expect(request).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it('sends headers and body as given and keeps one connection alive across requests', async () => {
    const seen: { connection?: string; a?: string; body: string; socket: number | undefined }[] =
      [];
    const server = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const { connection, a } = req.headers as { connection?: string; a?: string };
        seen.push({ connection, a, body, socket: req.socket.remotePort });
        res.writeHead(200).end('ok');
      });
    });
    for (const body of ['w', 'x', 'y', 'z']) {
      const response = await send(
        {
          url: new URL('/mcp', server.origin),
          method: 'POST',
          headers: { a: 'b' },
          body,
          signal: liveSignal(),
        },
        wireFor(server),
      );
      expect(
        await readBoundedText(response, { ...SCOPE, maxBytes: 10, signal: liveSignal() }),
      ).toBe('ok');
    }
    expect(seen.map(({ connection, a, body }) => ({ connection, a, body }))).toEqual(
      ['w', 'x', 'y', 'z'].map((body) => ({ connection: 'keep-alive', a: 'b', body })),
    );
    // Sockets are reused from one shared pool (undici may still be releasing the previous one
    // when the next request starts, so two can alternate); a per-call client would open four.
    expect(new Set(seen.map((request) => request.socket)).size).toBeLessThanOrEqual(2);
  });
});
