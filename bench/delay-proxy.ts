/**
 * An emulated link: a TCP proxy on 127.0.0.1 that holds every chunk, in each direction, for half
 * a round trip before passing it on, and holds a new connection's first bytes to the server as a
 * TCP handshake would (one round trip after the connect, then half of one on the way). It runs in
 * the runner's process, which only waits on its children while a table runs. Counting round trips
 * per call through it shows what a protocol costs on a real network, whatever the loopback speed.
 */
import { connect, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface DelayProxy {
  /** The proxy's `http://127.0.0.1:PORT` with `target`'s path and query. */
  urlFor(target: string): string;
  readonly roundTripMs: number;
  close(): Promise<void>;
}

/** Chunks of one direction of one connection, each passed on at its due time, in order. */
function delayedPipe(from: Socket, to: Socket, delayMs: number, notBeforeMs: number): void {
  const queue: { due: number; chunk: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length > 0 && (queue[0]?.due ?? 0) <= now) {
      const next = queue.shift();
      if (next?.chunk === null) to.end();
      else if (next !== undefined && !to.destroyed) to.write(next.chunk);
    }
    const head = queue[0];
    if (head !== undefined) timer = setTimeout(pump, Math.max(0, head.due - now));
  };
  const push = (chunk: Buffer | null) => {
    // Due times never decrease (one delay per direction), so the queue stays in arrival order.
    queue.push({ due: Math.max(performance.now() + delayMs, notBeforeMs + delayMs), chunk });
    if (timer === undefined)
      timer = setTimeout(pump, Math.max(0, (queue[0]?.due ?? 0) - performance.now()));
  };
  from.on('data', (chunk: Buffer) => push(chunk));
  from.on('end', () => push(null));
  from.on('close', () => {
    if (timer !== undefined && queue.length === 0) clearTimeout(timer);
  });
}

/** Starts a proxy to `target`'s host and port with a round trip of `roundTripMs`. */
export async function startDelayProxy(target: string, roundTripMs: number): Promise<DelayProxy> {
  const upstream = new URL(target);
  const half = roundTripMs / 2;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const acceptedAt = performance.now();
    const server = connect(Number(upstream.port), upstream.hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        server.destroy();
      });
    }
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
    // SYN out and SYN-ACK back take one round trip before the client's first byte can leave.
    delayedPipe(client, server, half, acceptedAt + roundTripMs);
    delayedPipe(server, client, half, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    roundTripMs,
    urlFor: (url) => {
      const proxied = new URL(url);
      proxied.port = String(address.port);
      return proxied.toString();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
