/**
 * The child side of a benchmark server: a `node:http` server on 127.0.0.1 with an OS-assigned
 * port, counting every request by method and route and every connection it accepts, reporting
 * its port and its counts to the runner over IPC, and exiting when told to stop or when the runner
 * goes away (the IPC channel closes when the parent dies, so a crashed runner leaves no orphan
 * server behind).
 * Run alone (no IPC), it prints its URL on stdout and runs until interrupted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { cpuMicros, mainThreadCpuMicros } from '../stats.js';
import { type ChildMessage, isParentMessage } from './protocol.js';

/** Handles one request; `path` is the URL's pathname. */
export type BenchHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
) => Promise<void>;

/** What a server script hands to {@link serveInChild}. */
export interface ServeOptions {
  /** Printed when run alone. */
  readonly name: string;
  readonly handle: BenchHandler;
  /** Ends whatever sessions the server keeps, before its sockets are destroyed. */
  readonly closeSessions?: () => Promise<void>;
  /** How long an idle keep-alive socket stays open, in ms (default 5,000, Node's own). */
  readonly keepAliveTimeoutMs?: number;
  /** The listen backlog (default 511, Node's own; the kernel caps it at `somaxconn`). */
  readonly backlog?: number;
}

/** Answers with a JSON-RPC error body, the shape the SDK's own servers use. */
export function rpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

/** Starts the server and wires it to the runner; resolves once it listens. */
export async function serveInChild(options: ServeOptions): Promise<void> {
  let byMethod: Record<string, number> = {};
  let byRoute: Record<string, number> = {};
  let connections = 0;
  let cpuSince = process.cpuUsage();
  let mainSince = mainThreadCpuMicros();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    byMethod[method] = (byMethod[method] ?? 0) + 1;
    const route = `${method} ${path}`;
    byRoute[route] = (byRoute[route] ?? 0) + 1;
    options.handle(req, res, path).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Node's default, set explicitly: clients' pooled sockets go idle and close within seconds of
  // the last call, which the resources-left check of the memory benchmark relies on.
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await options.closeSessions?.().catch(() => undefined);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (process.connected) process.disconnect();
    process.exit(0);
  };

  process.on('message', (message: unknown) => {
    if (!isParentMessage(message)) return;
    if (message.type === 'stop') void stop();
    else if (message.type === 'reset') {
      byMethod = {};
      byRoute = {};
      connections = 0;
      cpuSince = process.cpuUsage();
      mainSince = mainThreadCpuMicros();
      send({ type: 'reset', id: message.id });
    } else {
      const counts = {
        byMethod,
        byRoute,
        connections,
        cpuMicros: cpuMicros(process.cpuUsage(cpuSince)),
        mainThreadCpuMicros: mainThreadCpuMicros() - mainSince,
      };
      send({ type: 'counts', id: message.id, counts });
    }
  });
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());

  await new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', options.backlog ?? 511, resolve),
  );
  const { port } = server.address() as AddressInfo;
  if (process.send === undefined) {
    console.log(`${options.name} listening on http://127.0.0.1:${port}`);
  } else {
    send({ type: 'ready', port });
  }
}
