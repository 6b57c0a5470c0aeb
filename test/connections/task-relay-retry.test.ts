/**
 * A relayed task request under the connection's retry policy (decision 0050): sent once, a 503
 * included, as every request of a task is (decision 0042); the client that polls asks again at
 * its own pace, and its next `tasks/get` goes through. Against a raw 2026-07-28 server on
 * 127.0.0.1 that refuses the first request of each method with 503, through the requester a
 * gateway forwards with.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpTaskRequesterOf } from '../../src/binding/kernel/mcp-protocols.js';
import { resolveMcpConnection } from '../../src/connections/define-mcp-connection.js';
import { defineMcpClientConnection } from '../../src/connections/index.js';
import { taskRequesterOf } from '../../src/connections/mcp-task-relay.js';
import {
  listenOnLoopback,
  readBodyText,
  stopServer,
  trackSockets,
} from '../fixtures/http-helpers.js';
import { expectNoOpenSockets } from '../support/leaks.js';

const AT = '2026-12-05T12:00:00.000Z';
/** Each request the server received: its method and the HTTP status it answered. */
const seen: string[] = [];
let server: Server;
let sockets: Set<Socket>;
let url: string;

beforeAll(async () => {
  const refused = new Set<string>();
  server = createServer(async (req, res) => {
    const message = JSON.parse((await readBodyText(req)) ?? '{}') as {
      id: number;
      method: string;
      params: { taskId: string };
    };
    // The first request of each method is refused as a busy server refuses it.
    if (!refused.has(message.method)) {
      refused.add(message.method);
      seen.push(`${message.method} 503`);
      res.writeHead(503).end();
      return;
    }
    seen.push(`${message.method} 200`);
    const result =
      message.method === 'tasks/get'
        ? {
            resultType: 'complete',
            taskId: message.params.taskId,
            status: 'working',
            createdAt: AT,
            lastUpdatedAt: AT,
            ttlMs: null,
          }
        : { resultType: 'complete' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  sockets = trackSockets(server);
  url = `${await listenOnLoopback(server)}/mcp`;
});
afterAll(async () => {
  await stopServer(server, sockets);
  await expectNoOpenSockets();
});

describe('a relayed task request under retry: { attempts: 2 }', () => {
  const connection = () =>
    defineMcpClientConnection({
      name: 'jobs',
      transport: { url, protocolVersion: '2026-07-28' },
      retry: { attempts: 2 },
    });
  const requester = () =>
    taskRequesterOf(connection(), resolveMcpConnection(connection()), undefined);
  const options = () => ({ signal: new AbortController().signal, context: {} });

  it.each([
    ['tasks/get', { method: 'tasks/get', taskId: 'up-1' }],
    ['tasks/update', { method: 'tasks/update', taskId: 'up-1', inputResponses: {} }],
    ['tasks/cancel', { method: 'tasks/cancel', taskId: 'up-1' }],
  ] as const)('sends a %s once, and ends with the 503', async (method, request) => {
    seen.length = 0;
    await expect(requester().send(request, options())).rejects.toMatchObject({
      name: 'ConnectionRequestError',
      status: 503,
    });
    expect(seen).toEqual([`${method} 503`]);
  });

  it("relays the client's next poll, as the upstream answered it", async () => {
    seen.length = 0;
    const answer = await requester().send({ method: 'tasks/get', taskId: 'up-1' }, options());
    expect(answer).toEqual({
      resultType: 'complete',
      taskId: 'up-1',
      status: 'working',
      createdAt: AT,
      lastUpdatedAt: AT,
      ttlMs: null,
    });
    expect(seen).toEqual(['tasks/get 200']);
  });

  it("carries the connection's task deadline", () => {
    expect(requester().taskTimeoutMs).toBe(600_000);
    expect(mcpTaskRequesterOf({ name: 'native' })).toBeUndefined();
  });
});
