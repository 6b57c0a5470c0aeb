/**
 * OpenAPI authentication you can see: a document that declares no security (GitHub's does not)
 * never sends the connection's token, and the mount says so; `security` places it on every
 * operation; static `headers` go with every request (CR and LF refused at definition).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import {
  defineOpenApiConnection,
  mountConnections,
  type OpenApiConnectionConfig,
} from '../../src/connections/index.js';
import { listenOnLoopback, stopServer, trackSockets } from '../fixtures/http-helpers.js';

/** A one-operation document with no security at all. */
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'repos', version: '1' },
  paths: {
    '/repos': {
      get: {
        operationId: 'listRepos',
        responses: { '200': { description: 'ok', content: { 'application/json': {} } } },
      },
    },
  },
};

const seen: { headers: IncomingHttpHeaders; url: string }[] = [];
let close: (() => Promise<void>) | undefined;

async function service(): Promise<string> {
  const server = createServer((req, res) => {
    seen.push({ headers: req.headers, url: req.url ?? '' });
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const sockets = trackSockets(server);
  const origin = await listenOnLoopback(server);
  close = () => stopServer(server, sockets);
  return origin;
}

afterEach(async () => {
  vi.restoreAllMocks();
  seen.length = 0;
  await close?.();
  close = undefined;
});

async function callOnce(extra: Partial<OpenApiConnectionConfig>): Promise<void> {
  const origin = await service();
  const tools = await mountConnections([
    defineOpenApiConnection({
      name: 'repos',
      spec: DOCUMENT,
      baseUrl: origin,
      token: () => 's3cret',
      ...extra,
    }),
  ]);
  const [tool] = tools;
  if (tool === undefined) throw new Error('nothing mounted');
  expect(await runTool(tool, {}, { source: 'agent' })).toMatchObject({ ok: true });
}

describe('a document that declares no security', () => {
  it('sends no token, and the mount says so once with the fix', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await callOnce({});
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(warn.mock.calls).toEqual([
      [
        `[stitchkit-transport] connection "repos": a token is configured, but no mounted operation declares security, so it is never sent; set security: { type: 'bearer' } (or 'basic', or an apiKey) to send it`,
      ],
    ]);
  });

  it('sends it as a bearer with security: { type: "bearer" }, and says nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await callOnce({ security: { type: 'bearer' } });
    expect(seen[0]?.headers.authorization).toBe('Bearer s3cret');
    expect(warn).not.toHaveBeenCalled();
  });

  it('sends it as an apiKey query parameter when told', async () => {
    await callOnce({ security: { type: 'apiKey', in: 'query', name: 'api_key' } });
    expect(seen[0]?.url).toBe('/repos?api_key=s3cret');
  });

  it('sends static headers with every request, the credential still last', async () => {
    await callOnce({
      security: { type: 'bearer' },
      headers: { 'X-GitHub-Api-Version': '2022-11-28', authorization: 'ignored' },
    });
    expect(seen[0]?.headers).toMatchObject({
      'x-github-api-version': '2022-11-28',
      authorization: 'Bearer s3cret',
    });
  });
});

describe('refused at definition', () => {
  it('a header value with CR or LF, and a security override of no known shape', () => {
    expect(() =>
      defineOpenApiConnection({ name: 'bad', spec: DOCUMENT, headers: { 'x-a': 'one\r\ntwo' } }),
    ).toThrow(
      'OpenAPI connection "bad": headers["x-a"] must be a valid header name with a string value free of CR, LF and NUL',
    );
    expect(() =>
      defineOpenApiConnection({
        name: 'bad',
        spec: DOCUMENT,
        security: { type: 'digest' } as never,
      }),
    ).toThrow(
      `OpenAPI connection "bad": security must be { type: 'bearer' }, { type: 'basic' } or { type: 'apiKey', in: 'header' | 'query' | 'cookie', name }`,
    );
  });
});
