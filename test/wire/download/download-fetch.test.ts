import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { projectToolError } from '../../../src/binding/kernel/app-error.js';
import { DownloadError } from '../../../src/wire/download/download-error.js';
import {
  type DownloadFetchOptions,
  fetchForDownload,
  type HostResolver,
} from '../../../src/wire/download/download-fetch.js';
import { expectNoOpenSockets } from '../../support/leaks.js';
import { type LoopbackServer, startLoopbackServer } from '../../support/loopback-server.js';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(expectNoOpenSockets);

const seenHeaders: Record<string, string | string[] | undefined>[] = [];

/** A loopback server answering `/file` with `hello`, and `/to?<url>` with a 302 to `<url>`. */
async function fileServer(): Promise<LoopbackServer> {
  const server = await startLoopbackServer((req, res) => {
    seenHeaders.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/to') {
      res.writeHead(302, { location: decodeURIComponent(url.search.slice(1)) }).end();
    } else if (url.pathname.startsWith('/hop/')) {
      const left = Number(url.pathname.slice('/hop/'.length));
      res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/file' }).end();
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    }
  });
  servers.push(server);
  return server;
}

const live = () => new AbortController().signal;

/** A resolver that records every name it is asked and answers from `table`. */
function recordingResolver(table: Record<string, readonly string[]>) {
  const asked: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    asked.push(hostname);
    return (table[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(':') ? (6 as const) : (4 as const),
    }));
  };
  return { asked, resolve };
}

async function download(url: string, options: Partial<DownloadFetchOptions> = {}) {
  const response = await fetchForDownload(url, { signal: live(), ...options });
  try {
    let text = '';
    for await (const chunk of response.body) text += Buffer.from(chunk).toString();
    return { status: response.status, text, redirects: response.redirects };
  } finally {
    response.release();
  }
}

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return DownloadError.isInstance(error) ? error.code : `raw: ${String(error)}`;
  }
}

describe('fetchForDownload', () => {
  it('downloads from a loopback server when private hosts are allowed', async () => {
    const server = await fileServer();
    expect(await download(`${server.origin}/file`, { allowPrivateHosts: true })).toEqual({
      status: 200,
      text: 'hello',
      redirects: 0,
    });
  });

  it('refuses the same URL without allowPrivateHosts, with no connection attempted', async () => {
    const server = await fileServer();
    const error = await fetchForDownload(`${server.origin}/file`, { signal: live() }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ code: 'DOWNLOAD_HOST_REFUSED', refusal: 'loopback' });
    expect((error as Error).message).not.toContain('127.0.0.1');
    expect(JSON.stringify(projectToolError(error)?.details)).not.toContain('127.0.0.1');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a public-looking name that resolves to 127.0.0.1, asking the resolver once', async () => {
    const server = await fileServer();
    const resolver = recordingResolver({ 'files.example.com': ['127.0.0.1'] });
    const url = `http://files.example.com:${new URL(server.origin).port}/file`;
    expect(await refusalOf(download(url, { resolveHost: resolver.resolve }))).toBe(
      'DOWNLOAD_HOST_REFUSED',
    );
    expect(resolver.asked).toEqual(['files.example.com']);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a name when any of its answers is private', async () => {
    const resolver = recordingResolver({ 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] });
    expect(
      await refusalOf(download('http://mixed.example.com/file', { resolveHost: resolver.resolve })),
    ).toBe('DOWNLOAD_HOST_REFUSED');
  });

  it('connects to the checked address: a name only the injected resolver knows still reaches it', async () => {
    const server = await fileServer();
    const resolver = recordingResolver({ 'files.example.test': ['127.0.0.1'] });
    const port = new URL(server.origin).port;
    const result = await download(`http://files.example.test:${port}/file`, {
      allowPrivateHosts: true,
      resolveHost: resolver.resolve,
    });
    expect(result.text).toBe('hello');
    expect(resolver.asked).toEqual(['files.example.test']);
    expect(seenHeaders.at(-1)?.host).toBe(`files.example.test:${port}`);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.1/file',
    'http://localhost:1/file',
    'http://2130706433/file',
    'http://[::ffff:127.0.0.1]/file',
    'http://metadata.internal/file',
  ])('refuses a redirect from an allowed host to %s at the hop', async (target) => {
    const server = await fileServer();
    const url = `${server.origin}/to?${encodeURIComponent(target)}`;
    const resolver = recordingResolver({});
    expect(
      await refusalOf(download(url, { allowHosts: [server.host], resolveHost: resolver.resolve })),
    ).toBe('DOWNLOAD_HOST_REFUSED');
    expect(server.requests.map((request) => request.path)).toEqual([
      `/to?${encodeURIComponent(target)}`,
    ]);
    expect(resolver.asked).toEqual([]);
  });

  it('follows 5 redirects and refuses the 6th', async () => {
    const server = await fileServer();
    expect(await download(`${server.origin}/hop/4`, { allowPrivateHosts: true })).toEqual({
      status: 200,
      text: 'hello',
      redirects: 5,
    });
    server.requests.length = 0;
    expect(await refusalOf(download(`${server.origin}/hop/5`, { allowPrivateHosts: true }))).toBe(
      'DOWNLOAD_REDIRECT_REFUSED',
    );
    expect(server.requests).toHaveLength(6);
  });

  it('drops credential headers when a redirect changes origin, keeps them on the same origin', async () => {
    const a = await fileServer();
    const b = await fileServer();
    seenHeaders.length = 0;
    const headers = { authorization: 'Bearer secret', cookie: 'c=1', 'x-trace': 't' };
    await download(`${a.origin}/hop/1`, { allowPrivateHosts: true, headers });
    expect(seenHeaders.map((seen) => seen.authorization)).toEqual([
      'Bearer secret',
      'Bearer secret',
      'Bearer secret',
    ]);
    seenHeaders.length = 0;
    await download(`${a.origin}/to?${encodeURIComponent(`${b.origin}/file`)}`, {
      allowPrivateHosts: true,
      headers,
    });
    expect(seenHeaders.map((seen) => [seen.authorization, seen.cookie, seen['x-trace']])).toEqual([
      ['Bearer secret', 'c=1', 't'],
      [undefined, undefined, 't'],
    ]);
  });

  it.each([
    ['ftp://example.com/file', 'DOWNLOAD_INVALID_URL'],
    ['file:///etc/passwd', 'DOWNLOAD_INVALID_URL'],
    ['http://user:pass@example.com/file', 'DOWNLOAD_INVALID_URL'],
    ['not a url', 'DOWNLOAD_INVALID_URL'],
  ])('refuses %s with %s', async (url, code) => {
    expect(await refusalOf(download(url))).toBe(code);
  });

  it('refuses a redirect to another scheme', async () => {
    const server = await fileServer();
    const url = `${server.origin}/to?${encodeURIComponent('file:///etc/passwd')}`;
    expect(await refusalOf(download(url, { allowPrivateHosts: true }))).toBe(
      'DOWNLOAD_REDIRECT_REFUSED',
    );
  });

  it('rejects with the exact reason when aborted while waiting for headers', async () => {
    const server = await startLoopbackServer(() => undefined);
    servers.push(server);
    const controller = new AbortController();
    const pending = fetchForDownload(`${server.origin}/hang`, {
      signal: controller.signal,
      allowPrivateHosts: true,
    });
    await expect.poll(() => server.requests.length).toBe(1);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await server.requests[0]?.closed;
  });
});

describe('fetchForDownload: refused address forms, none connected', () => {
  const unreachable: HostResolver = async () => {
    throw new Error('the resolver must not be asked');
  };

  it.each([
    ['IPv4 loopback', 'http://127.0.0.1/f'],
    ['IPv4 loopback elsewhere in 127/8', 'http://127.8.9.10/f'],
    ['IPv4 private 10/8', 'http://10.1.2.3/f'],
    ['IPv4 private 172.16/12', 'http://172.20.0.1/f'],
    ['IPv4 private 192.168/16', 'http://192.168.0.10/f'],
    ['IPv4 link-local', 'http://169.254.169.254/f'],
    ['IPv4 CGNAT', 'http://100.64.0.1/f'],
    ['IPv4 multicast', 'http://224.0.0.251/f'],
    ['IPv4 reserved', 'http://240.0.0.1/f'],
    ['IPv4 broadcast', 'http://255.255.255.255/f'],
    ['IPv4 unspecified', 'http://0.0.0.0/f'],
    ['IPv4 documentation', 'http://192.0.2.1/f'],
    ['IPv6 loopback', 'http://[::1]/f'],
    ['IPv6 unspecified', 'http://[::]/f'],
    ['IPv6 link-local', 'http://[fe80::1]/f'],
    ['IPv6 unique-local', 'http://[fd00::1]/f'],
    ['IPv6 multicast', 'http://[ff02::1]/f'],
    ['IPv6 documentation', 'http://[2001:db8::1]/f'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/f'],
    ['IPv4-mapped private', 'http://[::ffff:192.168.1.1]/f'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/f'],
    ['NAT64 of loopback', 'http://[64:ff9b::7f00:1]/f'],
    ['NAT64 of link-local', 'http://[64:ff9b::169.254.169.254]/f'],
    ['6to4 of loopback', 'http://[2002:7f00:1::1]/f'],
    ['hex IPv4', 'http://0x7f.1/f'],
    ['decimal IPv4', 'http://2130706433/f'],
    ['octal IPv4', 'http://0177.0.0.1/f'],
    ['short IPv4', 'http://127.1/f'],
    ['localhost', 'http://localhost/f'],
    ['*.localhost', 'http://api.localhost/f'],
    ['*.local', 'http://nas.local/f'],
    ['*.internal', 'http://db.internal/f'],
  ])('%s (%s)', async (_label, url) => {
    expect(await refusalOf(download(url, { resolveHost: unreachable }))).toBe(
      'DOWNLOAD_HOST_REFUSED',
    );
  });

  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 private', '192.168.1.20'],
    ['IPv4 link-local', '169.254.169.254'],
    ['IPv4 CGNAT', '100.100.100.100'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unique-local', 'fd00::5'],
    ['IPv6 link-local', 'fe80::5'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['NAT64 of private', '64:ff9b::a00:1'],
  ])('a name resolving to %s (%s)', async (_label, address) => {
    const resolver = recordingResolver({ 'cdn.example.com': [address] });
    expect(
      await refusalOf(download('https://cdn.example.com/f', { resolveHost: resolver.resolve })),
    ).toBe('DOWNLOAD_HOST_REFUSED');
  });
});
