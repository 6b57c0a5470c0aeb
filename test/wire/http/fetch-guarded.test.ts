import { describe, expect, it } from 'vitest';
import type { OperationScope } from '../../../src/wire/core/operation.js';
import { ConnectionUrlError } from '../../../src/wire/errors/errors.js';
import {
  describeRedirect,
  fetchWithoutRedirects,
  MAX_REDIRECT_PATH_CHARS,
  type WireRequest,
  type WireSend,
} from '../../../src/wire/http/fetch-guarded.js';
import { createHostFence, type HostFence } from '../../../src/wire/http/url-fence.js';
import type { WireResponse } from '../../../src/wire/read/abortable-read.js';
import { readBoundedText } from '../../../src/wire/read/bounded-body.js';
import { type LoopbackServer, liveSignal, serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();

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

  it('says where a refused redirect pointed: a same-origin path, never its query', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(308, { location: '/mcp/?token=SECRET#frag' }).end();
    });
    const error = await send(
      { url: new URL('/mcp', server.origin), method: 'GET', headers: {}, signal: liveSignal() },
      wireFor(server),
    ).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({
      message: 'Connection "c" refused a redirect (status 308) to /mcp/ during initialize',
      url: `${server.origin}/mcp`,
      redirectTo: `${server.origin}/mcp/`,
    });
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

describe('describeRedirect', () => {
  const from = new URL('http://127.0.0.1:4000/mcp?session=SECRET');
  it.each([
    ['a relative path', '/mcp/', 'to /mcp/', 'http://127.0.0.1:4000/mcp/'],
    ['a path relative to the request', 'v2/mcp', 'to /v2/mcp', 'http://127.0.0.1:4000/v2/mcp'],
    [
      'an absolute same-origin URL with query and fragment',
      'http://127.0.0.1:4000/mcp/?token=SECRET#f',
      'to /mcp/',
      'http://127.0.0.1:4000/mcp/?token=SECRET#f',
    ],
    [
      'the same host on https',
      'https://127.0.0.1/mcp?token=SECRET',
      'to https://127.0.0.1/mcp',
      'https://127.0.0.1/mcp?token=SECRET',
    ],
    [
      'the same host on another port, userinfo dropped',
      'http://u:p@127.0.0.1:4001/mcp',
      'to http://127.0.0.1:4001/mcp',
      'http://u:p@127.0.0.1:4001/mcp',
    ],
    ['another host', 'https://evil.example.test/steal?token=SECRET', 'to another host', undefined],
    ['a protocol-relative other host', '//evil.example.test/x', 'to another host', undefined],
    ['localhost instead of 127.0.0.1', 'http://localhost:4000/mcp', 'to another host', undefined],
    ['a non-HTTP scheme', 'javascript:alert(1)', 'to a non-HTTP URL', undefined],
    ['no location', null, 'without a usable location', undefined],
    ['an empty location', '  ', 'without a usable location', undefined],
    ['an unparseable location', 'http://[::1', 'without a usable location', undefined],
  ])('describes %s', (_label, location, described, url) => {
    const target = describeRedirect(location, from);
    expect(target.described).toBe(described);
    expect(target.url?.href).toBe(url === undefined ? undefined : new URL(url).href);
    expect(target.described).not.toContain('SECRET');
    expect(target.described).not.toContain('evil');
  });

  it('cuts a long path, percent-encoding what a log must not print raw', () => {
    const long = describeRedirect(`/${'a'.repeat(500)}`, from);
    expect(long.described).toBe(`to /${'a'.repeat(MAX_REDIRECT_PATH_CHARS - 1)}…`);
    expect(describeRedirect('/a b\u001b[31m', from).described).toBe('to /a%20b%1B[31m');
  });
});
