/**
 * A download through a CONNECT proxy on loopback: the proxy is asked to tunnel to the address the
 * download checked, never to the name (which it would resolve again), and the file server sees
 * the name as `Host`; `NO_PROXY` bypasses it with `proxy: 'env'`; a proxy's 407 is a download
 * failure that says so; a refused host is refused before the proxy is asked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadError } from '../../../src/wire/download/download-error.js';
import { fetchForDownload, type HostResolver } from '../../../src/wire/download/download-fetch.js';
import { type ConnectProxy, startConnectProxy } from '../../fixtures/connect-proxy.js';
import { type LoopbackServer, startLoopbackServer } from '../../support/loopback-server.js';

const servers: LoopbackServer[] = [];
const proxies: ConnectProxy[] = [];
afterEach(async () => {
  await Promise.all([
    ...servers.splice(0).map((s) => s.close()),
    ...proxies.splice(0).map((p) => p.close()),
  ]);
});

const hosts: string[] = [];
async function fileServer(): Promise<LoopbackServer> {
  const server = await startLoopbackServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  servers.push(server);
  return server;
}

async function proxy(options: { credentials?: string } = {}): Promise<ConnectProxy> {
  const started = await startConnectProxy(options);
  proxies.push(started);
  return started;
}

/** `files.test` is the loopback address, as a resolver the download trusts would say. */
const resolveHost: HostResolver = async (hostname) =>
  hostname === 'files.test' ? [{ address: '127.0.0.1', family: 4 }] : [];

async function text(url: string, extra: Record<string, unknown>): Promise<string> {
  const response = await fetchForDownload(url, {
    signal: new AbortController().signal,
    allowPrivateHosts: true,
    resolveHost,
    ...extra,
  });
  try {
    let body = '';
    for await (const chunk of response.body) body += Buffer.from(chunk).toString();
    return body;
  } finally {
    response.release();
  }
}

describe('a download through a proxy', () => {
  it('tunnels to the checked address, with the name as Host', async () => {
    const server = await fileServer();
    const via = await proxy();
    const port = new URL(server.origin).port;
    hosts.length = 0;
    expect(await text(`http://files.test:${port}/file`, { proxy: new URL(via.url) })).toBe('hello');
    expect(via.connects.map((asked) => asked.target)).toEqual([`127.0.0.1:${port}`]);
    expect(hosts).toEqual([`files.test:${port}`]);
  });

  it("honours NO_PROXY with proxy: 'env'", async () => {
    const server = await fileServer();
    const via = await proxy();
    const port = new URL(server.origin).port;
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTP_PROXY = via.url;
    try {
      process.env.NO_PROXY = 'elsewhere.test, .files.test';
      expect(await text(`http://files.test:${port}/file`, { proxy: 'env' })).toBe('hello');
      expect(via.connects).toEqual([]);
      process.env.NO_PROXY = 'elsewhere.test';
      expect(await text(`http://files.test:${port}/file`, { proxy: 'env' })).toBe('hello');
      expect(via.connects.map((asked) => asked.target)).toEqual([`127.0.0.1:${port}`]);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("a proxy's 407 fails the download, saying the proxy refused", async () => {
    const server = await fileServer();
    const via = await proxy({ credentials: 'me:pw' });
    const error = await text(`${server.origin}/file`, { proxy: new URL(via.url) }).catch(
      (caught: unknown) => caught,
    );
    expect(DownloadError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'DOWNLOAD_FAILED' });
    expect((error as Error).message).toContain('the proxy refused to open a tunnel');
  });

  it('refuses a private host before the proxy is asked', async () => {
    const via = await proxy();
    const error = await fetchForDownload('http://files.test:9/file', {
      signal: new AbortController().signal,
      resolveHost,
      proxy: new URL(via.url),
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'DOWNLOAD_HOST_REFUSED' });
    expect(via.connects).toEqual([]);
  });
});
