/**
 * Network failures on real sockets, typed at every step a user meets them: a closed port, a
 * server that resets the connection, one that closes it before its answer ended, a TLS server
 * whose certificate the client refuses, and a host name that does not resolve. Each is one
 * `ConnectionNetworkError` with the operation and phase, the raw Node or undici error kept as its
 * cause, and no host in what the model sees.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult, toolResultFromError } from '../../src/binding/index.js';
import {
  ConnectionNetworkError,
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { DownloadError } from '../../src/wire/download/download-error.js';
import { fetchForDownload } from '../../src/wire/download/download-fetch.js';
import { listenOnLoopback, readBodyText } from '../fixtures/http-helpers.js';
import { rejectionOf } from '../support/fault-suite.js';

const servers: { close(callback: () => void): unknown }[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<string> {
  const server = createNetServer();
  const origin = await listenOnLoopback(server as never);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return origin;
}

/** A raw TCP server that answers every connection with `onSocket`. */
async function rawServer(onSocket: (socket: Socket) => void): Promise<string> {
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  servers.push(server);
  return listenOnLoopback(server as never);
}

function mcpConnection(url: string) {
  return defineMcpClientConnection({ name: 'down', transport: { url }, timeoutMs: 10_000 });
}

async function mountFailure(url: string): Promise<ConnectionNetworkError> {
  const error = await rejectionOf(mountConnections([mcpConnection(url)]));
  expect(error).toBeInstanceOf(ConnectionNetworkError);
  return error as ConnectionNetworkError;
}

describe('at mount', () => {
  it('a closed port: refused, during the first discovery request, retryable', async () => {
    const origin = await closedPort();
    const error = await mountFailure(`${origin}/mcp`);
    expect(error).toMatchObject({
      failure: 'refused',
      operation: 'tools/list',
      phase: 'discovery',
      message:
        'Connection "down" failed on the network: the connection was refused during tools/list',
    });
    expect((error.cause as { code?: unknown }).code).toBe('ECONNREFUSED');
  });

  it('a server that resets the connection: reset', async () => {
    const origin = await rawServer((socket) => {
      socket.once('data', () => socket.resetAndDestroy());
    });
    expect(await mountFailure(`${origin}/mcp`)).toMatchObject({ failure: 'reset' });
  });

  it('a server that closes the connection before its answer ended: closed', async () => {
    const origin = await rawServer((socket) => {
      socket.once('data', () => {
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc"',
        );
      });
    });
    expect(await mountFailure(`${origin}/mcp`)).toMatchObject({
      failure: 'closed',
      observedReadBytes: 10,
    });
  });

  it('a TLS server whose certificate the client refuses: tls, never retried', async () => {
    const tls = join(import.meta.dirname, '../fixtures/tls');
    const server = createHttpsServer(
      {
        key: readFileSync(join(tls, 'self-signed.key')),
        cert: readFileSync(join(tls, 'self-signed.crt')),
      },
      (_req, res) => res.end(),
    );
    servers.push(server);
    const origin = (await listenOnLoopback(server as never)).replace('http:', 'https:');
    const error = await mountFailure(`${origin}/mcp`);
    expect(error).toMatchObject({ failure: 'tls' });
    expect((error.cause as { code?: unknown }).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    // A certificate the client refuses is refused again: not retryable.
    expect(toolResultFromError(error)).toMatchObject({
      ok: false,
      code: 'CONNECTION_NETWORK_ERROR',
      details: { failure: 'tls' },
      retryable: false,
    });
  });

  // A resolver that cannot be reached answers EAI_AGAIN after its own timeouts (seconds, not the
  // call's): the deadline is generous so that the failure read is the resolver's.
  it('a host name that does not resolve: dns', { timeout: 60_000 }, async () => {
    const error = await rejectionOf(
      mountConnections([
        defineMcpClientConnection({
          name: 'down',
          transport: { url: 'http://stitchkit-transport.invalid/mcp' },
          timeoutMs: 45_000,
        }),
      ]),
    );
    expect(error).toBeInstanceOf(ConnectionNetworkError);
    expect(error).toMatchObject({ failure: 'dns', operation: 'tools/list' });
  });

  it('an OpenAPI document on a closed port: refused, while loading the document', async () => {
    const origin = await closedPort();
    const error = await rejectionOf(
      mountConnections([defineOpenApiConnection({ name: 'api', spec: `${origin}/openapi.json` })]),
    );
    expect(error).toBeInstanceOf(ConnectionNetworkError);
    expect(error).toMatchObject({ failure: 'refused', operation: 'openapi/spec' });
  });
});

describe('during a call', () => {
  it('a server that resets the call: the tool fails CONNECTION_NETWORK_ERROR, retryable, no host shown', async () => {
    // Lists one tool on MCP 2026-07-28, then resets the connection of every call.
    const server = createHttpServer((req, res) => {
      void readBodyText(req).then((text) => {
        const body = JSON.parse(text ?? '{}') as { id?: number; method?: string };
        if (body.method !== 'tools/list') {
          req.socket.resetAndDestroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            result: {
              tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
              ttlMs: 0,
              cacheScope: 'private',
            },
          }),
        );
      });
    });
    servers.push(server);
    const origin = await listenOnLoopback(server);
    const tools = await mountConnections([
      defineMcpClientConnection({
        name: 'down',
        transport: { url: `${origin}/mcp`, protocolVersion: '2026-07-28' },
      }),
    ]);
    const echo = tools.find((tool) => tool.name === 'echo');
    if (echo === undefined) throw new Error('echo not mounted');
    const result = await runTool(echo, {}, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'CONNECTION_NETWORK_ERROR',
      details: {
        message: 'The connection failed: the connection was reset.',
        reason: 'network',
        failure: 'reset',
        operation: 'tools/call',
        phase: 'call',
      },
      retryable: true,
    });
    expect(JSON.stringify(result)).not.toContain('127.0.0.1');
    expect(toolCauseFromResult(result)).toBeInstanceOf(ConnectionNetworkError);
  });
});

describe('a download', () => {
  it('from a closed port fails DOWNLOAD_FAILED, saying the connection was refused and not where', async () => {
    const origin = await closedPort();
    const error = await fetchForDownload(`${origin}/file`, {
      signal: new AbortController().signal,
      allowPrivateHosts: true,
    }).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: 'The download could not be completed (the connection was refused)',
    });
    expect(toolResultFromError(error)).toMatchObject({ code: 'DOWNLOAD_FAILED', retryable: true });
  });
});
