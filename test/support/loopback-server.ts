/**
 * A minimal node:http server on 127.0.0.1 with an OS-assigned port, for wire tests. It records
 * requests, notices when a request's socket closes, and stops itself (sockets included).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, expect } from 'vitest';

/** What the server saw of one request. */
export interface SeenRequest {
  method: string;
  path: string;
  /** Resolves when the client side of this request goes away (or the response ends). */
  closed: Promise<void>;
}

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `host:port` as `URL.host` spells it. */
  host: string;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /** Stops the server and destroys every socket. */
  close(): Promise<void>;
}

/** Handles one request; it may write slowly or never finish. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Starts a server whose `close` the test must call (typically in `afterEach`). */
export async function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', closed });
    Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The loopback servers of one test file: each closes after the test that started it, and the
 * file's end checks that no socket or timer outlived its tests. Call once, at the file's top level.
 */
export function serveEachTest(): (handler: Handler) => Promise<LoopbackServer> {
  let servers: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  afterAll(async () => {
    expect(await leakedHandles()).toEqual([]);
  });
  return async (handler) => {
    const server = await startLoopbackServer(handler);
    servers.push(server);
    return server;
  };
}

/** Writes `bytes` to the response in chunks of `size`, flushing each one separately. */
export async function writeInChunks(
  res: ServerResponse,
  bytes: Uint8Array,
  size: number,
): Promise<void> {
  for (let offset = 0; offset < bytes.length; offset += size) {
    const ok = res.write(bytes.subarray(offset, offset + size));
    if (!ok) await new Promise<void>((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/** A signal that never aborts, for reads that should simply run to completion. */
export function liveSignal(): AbortSignal {
  return new AbortController().signal;
}

const LEAK_KINDS: ReadonlySet<string> = new Set(['TCPSocketWrap', 'TCPServerWrap', 'Timeout']);

/**
 * Waits (up to a generous 2 s) for every socket, server and timer of this worker to go away and
 * returns what is left: the caller asserts it is empty. Client sockets close asynchronously after
 * the server destroys them, hence the wait.
 */
export async function leakedHandles(): Promise<string[]> {
  let left: string[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    left = process.getActiveResourcesInfo().filter((kind) => LEAK_KINDS.has(kind));
    if (left.length === 0) return left;
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 10));
  }
  return process.getActiveResourcesInfo().filter((kind) => LEAK_KINDS.has(kind));
}
