/**
 * The wire client has no deadline of its own: the machines' deadlines are the only ones, so a
 * connection configured to wait longer than undici's defaults (300 s for a head, 300 s between two
 * body chunks) waits as configured. Its own file, so that undici's coarse timer is created under
 * fake timers: undici keeps one process-wide tick, and a tick started on real time would make these
 * tests pass whatever the pool's settings.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fetchForDownload } from '../../../src/wire/download/download-fetch.js';
import { sendWithUndici } from '../../../src/wire/http/http-client.js';
import type { WireResponse } from '../../../src/wire/read/abortable-read.js';
import {
  type LoopbackServer,
  leakedHandles,
  liveSignal,
  startLoopbackServer,
} from '../../support/loopback-server.js';

/** Past undici's default head and body timeouts (300 s each). */
const SILENCE_MS = 301_000;

let servers: LoopbackServer[] = [];

// One fake clock for the whole file: undici's tick, once started, stays on the clock it started on.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

afterAll(async () => {
  vi.useRealTimers();
  expect(await leakedHandles()).toEqual([]);
});

async function text(response: WireResponse): Promise<string> {
  let body = '';
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) body += String(chunk);
  return body;
}

/** What a promise settled with, so a rejection is asserted rather than thrown. */
function settled<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** Resolves once the server has seen `count` requests, on real I/O under fake timers. */
async function seen(server: LoopbackServer, count: number): Promise<void> {
  while (server.requests.length < count) await vi.advanceTimersByTimeAsync(1);
}

describe('the wire client keeps no deadline of its own', () => {
  it('waits for a head that comes after more than 300 s of silence', async () => {
    let answer: (() => void) | undefined;
    const server = await startLoopbackServer((_req, res) => {
      answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('late');
    });
    servers.push(server);
    const sent = sendWithUndici({
      url: new URL('/slow-head', server.origin),
      method: 'POST',
      headers: {},
      body: '{}',
      signal: liveSignal(),
    });
    const outcome = settled(sent);
    await seen(server, 1);
    await vi.advanceTimersByTimeAsync(SILENCE_MS);
    answer?.();
    const result = await outcome;
    expect(result).not.toHaveProperty('error');
    const { value: response } = result as { value: WireResponse };
    expect(response.status).toBe(200);
    expect(await text(response)).toBe('late');
  });

  it('keeps reading a body that pauses for more than 300 s between two chunks', async () => {
    let finish: (() => void) | undefined;
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      finish = () => res.end('data: second\n\n');
    });
    servers.push(server);
    const response = await sendWithUndici({
      url: new URL('/slow-body', server.origin),
      method: 'GET',
      headers: {},
      signal: liveSignal(),
    });
    const body = settled(text(response));
    await vi.advanceTimersByTimeAsync(SILENCE_MS);
    finish?.();
    expect(await body).toEqual({ value: 'data: first\n\ndata: second\n\n' });
  });

  it('lets a download body pause for more than 300 s (its own agent too)', async () => {
    let finish: (() => void) | undefined;
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('first;');
      finish = () => res.end('second');
    });
    servers.push(server);
    const response = await fetchForDownload(new URL('/file', server.origin).href, {
      signal: liveSignal(),
      allowPrivateHosts: true,
    });
    const body = settled(text(response));
    await vi.advanceTimersByTimeAsync(SILENCE_MS);
    finish?.();
    expect(await body).toEqual({ value: 'first;second' });
    response.release();
  });
});
