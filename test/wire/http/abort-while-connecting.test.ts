/**
 * An abort that comes while a request's TCP connection is still being made rejects at once with
 * its exact reason. undici records such an abort and rejects only once the connection is made or
 * fails (its connect timeout is 10 s), so the wire races every answer against the signal
 * (decision 0020). The listener here drops SYNs: a child process listens with a backlog of one and
 * then blocks its own event loop, so the kernel's accept queue fills and later connects hang.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationScope } from '../../../src/wire/core/operation.js';
import { fetchForDownload } from '../../../src/wire/download/download-fetch.js';
import { fetchWithoutRedirects } from '../../../src/wire/http/fetch-guarded.js';
import { createHostFence } from '../../../src/wire/http/url-fence.js';

/** Listens on 127.0.0.1 with a backlog of one, prints its port, and never accepts. */
const LISTENER = `
const server = require('node:net').createServer();
server.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
  process.stdout.write(String(server.address().port) + '\\n', () => {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
  });
});
`;

/** Connections that fill the listener's accept queue (Linux keeps backlog + 1). */
const QUEUE_FILLERS = 4;
/** Far below undici's 10 s connect timeout, far above an abort's own latency. */
const PROMPT_MS = 3_000;

let listener: ChildProcess | undefined;
let origin = '';
const fillers: Socket[] = [];

beforeAll(async () => {
  const child = spawn(process.execPath, ['-e', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
  listener = child;
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.once('data', (chunk: Buffer) => resolve(String(chunk).trim()));
  });
  origin = `http://127.0.0.1:${port}`;
  for (let index = 0; index < QUEUE_FILLERS; index++) {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    socket.on('error', () => undefined);
    fillers.push(socket);
  }
  // The first connections complete in the kernel; the queue is full once they have.
  await Promise.all(
    fillers.slice(0, 2).map((socket) => new Promise((resolve) => socket.once('connect', resolve))),
  );
});

afterAll(() => {
  for (const socket of fillers) socket.destroy();
  listener?.kill('SIGKILL');
});

const SCOPE: OperationScope = { connectionName: 'c', operation: 'initialize', phase: 'discovery' };

/** Starts `request`, aborts it at once with a fresh reason, and says how it settled and when. */
async function abortWhileConnecting(request: (signal: AbortSignal) => Promise<unknown>) {
  const controller = new AbortController();
  const reason = new Error('the deadline fired');
  const started = performance.now();
  const pending = request(controller.signal).then(
    () => ({ outcome: 'resolved' as const }),
    (error: unknown) => ({ outcome: 'rejected' as const, error }),
  );
  setTimeout(() => controller.abort(reason), 50);
  const settled = await pending;
  return { settled, reason, elapsedMs: performance.now() - started };
}

describe('an abort while the connection is being made', () => {
  it('rejects a connection request at once with the exact reason', async () => {
    const url = new URL('/mcp', origin);
    const { settled, reason, elapsedMs } = await abortWhileConnecting((signal) =>
      fetchWithoutRedirects(
        { url, method: 'POST', headers: {}, body: '{}', signal },
        SCOPE,
        createHostFence('c', url),
      ),
    );
    expect(settled).toEqual({ outcome: 'rejected', error: reason });
    expect(elapsedMs).toBeLessThan(PROMPT_MS);
  });

  it('rejects a download at once with the exact reason', async () => {
    const { settled, reason, elapsedMs } = await abortWhileConnecting((signal) =>
      fetchForDownload(`${origin}/file`, { signal, allowPrivateHosts: true }),
    );
    expect(settled).toEqual({ outcome: 'rejected', error: reason });
    expect(elapsedMs).toBeLessThan(PROMPT_MS);
  });
});
