/**
 * Real networks: a connection through a CONNECT proxy on loopback (by URL and from the
 * environment, `NO_PROXY` honoured, a 407, the fence judging the target before the proxy is asked,
 * the target's bearer never in what the proxy is asked), and TLS with a private CA made at test
 * time (refused without `tls.ca`, trusted with it) and with a server that requires a client
 * certificate (mutual TLS).
 */
import { createServer as createHttpsServer, type Server } from 'node:https';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionNetworkError,
  ConnectionUrlError,
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { type ConnectProxy, startConnectProxy } from '../fixtures/connect-proxy.js';
import { legacyMcpHandler, mcpHandler } from '../fixtures/fault-server.js';
import { listenOnLoopback } from '../fixtures/http-helpers.js';
import { listPetsDocument } from '../fixtures/petstore.js';
import { makePrivateCa, type PrivateCa } from '../fixtures/private-ca.js';
import { HANDSHAKE, rejectionOf, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();
const proxies: ConnectProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxy(options: { credentials?: string } = {}): Promise<ConnectProxy> {
  const started = await startConnectProxy(options);
  proxies.push(started);
  return started;
}

/** Runs `body` with the proxy variables set as given, then puts the environment back. */
async function withEnv<T>(
  vars: Record<string, string | undefined>,
  body: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    return await body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

const CLEAR_PROXY_ENV = {
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
};

describe('a connection through a proxy', () => {
  it('reaches the target through a CONNECT tunnel; the proxy is never asked with the bearer', async () => {
    const server = await start(mcpHandler());
    const via = await proxy();
    const [echo] = await mountConnections([
      defineMcpClientConnection({
        name: 'proxied',
        transport: { url: server.url, protocolVersion: '2025-11-25' },
        token: () => 'secret-bearer',
        proxy: via.url,
      }),
    ]);
    const result = await runTool(echo as never, { message: 'via' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: { content: [{ type: 'text', text: 'Echo: via' }] } });
    // The target saw every request, with its bearer.
    expect(wire(server)).toEqual([
      ...HANDSHAKE,
      'POST /mcp tools/list',
      ...HANDSHAKE,
      'POST /mcp tools/call',
    ]);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(
      Array(6).fill('Bearer secret-bearer'),
    );
    // The proxy was asked for tunnels to the target only, and never saw the bearer.
    const target = new URL(server.origin).host;
    expect(new Set(via.connects.map((asked) => asked.target))).toEqual(new Set([target]));
    expect(JSON.stringify(via.connects)).not.toContain('secret-bearer');
  });

  it("honours HTTP_PROXY with proxy: 'env', and NO_PROXY bypasses it", async () => {
    const server = await start(mcpHandler());
    const via = await proxy();
    const target = new URL(server.origin).host;
    const mountWith = (noProxy: string | undefined) =>
      withEnv({ ...CLEAR_PROXY_ENV, HTTP_PROXY: via.url, NO_PROXY: noProxy }, () =>
        mountConnections([
          defineMcpClientConnection({
            name: 'env',
            transport: { url: server.url, protocolVersion: '2025-11-25' },
            proxy: 'env',
          }),
        ]),
      );
    expect((await mountWith(target)).map((tool) => tool.name)).toEqual(['echo']);
    expect(via.connects).toEqual([]);
    expect((await mountWith(undefined)).map((tool) => tool.name)).toEqual(['echo']);
    expect(new Set(via.connects.map((asked) => asked.target))).toEqual(new Set([target]));
  });

  it("a proxy's 407 is a typed network failure; its credentials in the proxy URL pass it", async () => {
    const server = await start(mcpHandler());
    const via = await proxy({ credentials: 'me:pw' });
    const connection = (url: string) =>
      defineMcpClientConnection({
        name: 'guarded',
        transport: { url: server.url, protocolVersion: '2025-11-25' },
        proxy: url,
      });
    const error = await rejectionOf(mountConnections([connection(via.url)]));
    expect(ConnectionNetworkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failure: 'proxy', operation: 'initialize' });
    expect((error as Error).message).toBe(
      'Connection "guarded" failed on the network: the proxy refused to open a tunnel during initialize',
    );
    expect(server.requests).toEqual([]);
    const withCredentials = via.url.replace('http://', 'http://me:pw@');
    expect(
      (await mountConnections([connection(withCredentials)])).map((tool) => tool.name),
    ).toEqual(['echo']);
    expect(via.connects.at(-1)?.headers['proxy-authorization']).toBe(
      `Basic ${Buffer.from('me:pw').toString('base64')}`,
    );
  });

  it('refuses an endpoint outside the fence before the proxy is asked to reach it', async () => {
    const server = await start(legacyMcpHandler({ endpoint: 'http://localhost:9/messages' }));
    const via = await proxy();
    const error = await rejectionOf(
      mountConnections([
        defineMcpClientConnection({
          name: 'legacy',
          transport: { url: server.url, type: 'sse' },
          proxy: via.url,
        }),
      ]),
    );
    expect(ConnectionUrlError.isInstance(error)).toBe(true);
    expect(via.connects.map((asked) => asked.target)).toEqual([new URL(server.origin).host]);
  });
});

describe('TLS with a private CA', () => {
  let pki: PrivateCa;
  const servers: Server[] = [];
  beforeAll(() => {
    pki = makePrivateCa();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function httpsService(requireClientCert: boolean): Promise<string> {
    const server = createHttpsServer(
      {
        cert: pki.serverCert,
        key: pki.serverKey,
        ...(requireClientCert ? { ca: pki.ca, requestCert: true, rejectUnauthorized: true } : {}),
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
        res.end('{"pets":[]}');
      },
    );
    servers.push(server);
    return (await listenOnLoopback(server as never)).replace('http:', 'https:');
  }

  const pets = (origin: string, tls?: Parameters<typeof defineOpenApiConnection>[0]['tls']) =>
    defineOpenApiConnection({
      name: 'pets',
      spec: listPetsDocument(origin),
      ...(tls === undefined ? {} : { tls }),
    });

  it('is refused without tls.ca, and trusted with it', async () => {
    const origin = await httpsService(false);
    const [untrusted] = await mountConnections([pets(origin)]);
    const refused = await runTool(untrusted as never, {}, { source: 'agent' });
    expect(toolCauseFromResult(refused)).toMatchObject({
      name: 'ConnectionNetworkError',
      failure: 'tls',
    });
    const [trusted] = await mountConnections([pets(origin, { ca: pki.ca })]);
    expect(await runTool(trusted as never, {}, { source: 'agent' })).toEqual({
      ok: true,
      data: { pets: [] },
    });
  });

  it('sends the client certificate a server requires (mutual TLS)', async () => {
    const origin = await httpsService(true);
    const [anonymous] = await mountConnections([pets(origin, { ca: pki.ca })]);
    const refused = await runTool(anonymous as never, {}, { source: 'agent' });
    expect(refused.ok).toBe(false);
    expect(ConnectionNetworkError.isInstance(toolCauseFromResult(refused))).toBe(true);
    const [identified] = await mountConnections([
      pets(origin, { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey }),
    ]);
    expect(await runTool(identified as never, {}, { source: 'agent' })).toEqual({
      ok: true,
      data: { pets: [] },
    });
  });
});

describe('network options are checked at definition', () => {
  const base = { name: 'x', transport: { url: 'http://127.0.0.1:1/mcp' } };
  it.each([
    [
      { proxy: 'socks://nope' },
      'MCP connection "x": proxy must be \'env\' or an http(s) proxy URL',
    ],
    [
      { tls: { ca: 'pem', rejectUnauthorized: false } },
      'MCP connection "x": tls takes ca, cert, key and servername only (got rejectUnauthorized; verification cannot be turned off)',
    ],
    [{ tls: { cert: 'pem' } }, 'MCP connection "x": tls.cert and tls.key go together'],
    [
      { dispatcher: { dispatch: () => true }, proxy: 'env' },
      'MCP connection "x": a dispatcher is used as given; configure its proxy and TLS on it, not with proxy or tls',
    ],
    [{ dispatcher: {} }, 'MCP connection "x": dispatcher must be an undici Dispatcher'],
  ])('refuses %j', (extra, message) => {
    expect(() => defineMcpClientConnection({ ...base, ...(extra as object) })).toThrow(message);
  });
});
