/**
 * A call that is abandoned (the caller cancels, or its deadline fires) tells the server with
 * `notifications/cancelled`, so the server's handler stops. The SDK server aborts a handler's
 * signal on that notification; a session DELETE would abort it too, so the SDK server here
 * refuses DELETE (405, which the specification allows) and the notice alone must do it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionTimeoutError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { type FaultServer, mcpHandler, reply, startFaultServer } from '../fixtures/fault-server.js';

interface Observed {
  started: number;
  aborted: { reason: unknown }[];
  deletes: number;
}

let http: Server;
let url: string;
const observed: Observed = { started: 0, aborted: [], deletes: 0 };

beforeAll(async () => {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  http = createServer((req, res) => {
    void (async () => {
      if (req.method === 'DELETE') {
        observed.deletes += 1;
        res.writeHead(405).end();
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
        });
        const server = new McpServer({ name: 'cancellable', version: '1.0.0' });
        server.registerTool('wait', { description: 'Waits until cancelled' }, (extra) => {
          observed.started += 1;
          return new Promise((resolve) => {
            extra.signal.addEventListener('abort', () => {
              observed.aborted.push({ reason: extra.signal.reason });
              resolve({ content: [{ type: 'text', text: 'stopped' }] });
            });
          });
        });
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((done) => http.close(() => done()));
});

async function waitFor(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function waitTool(timeoutMs?: number) {
  const [tool] = await mountConnections([
    defineMcpClientConnection({
      name: 'cancellable',
      transport: { url },
      ...(timeoutMs === undefined ? {} : { limits: { call: { timeoutMs } } }),
    }),
  ]);
  if (tool === undefined) throw new Error('wait not mounted');
  return tool;
}

describe('cancellation reaches the server', () => {
  it('aborts the server handler when the caller cancels; the caller keeps its exact reason', async () => {
    const tool = await waitTool();
    observed.aborted = [];
    const before = observed.started;
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const pending = runTool(tool, {}, { source: 'agent', signal: controller.signal });
    await waitFor(() => observed.started === before + 1);
    controller.abort(reason);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(toolCauseFromResult(result)).toBe(reason);
    await waitFor(() => observed.aborted.length === 1);
    expect(observed.aborted).toEqual([{ reason: 'The client cancelled the request' }]);
  });

  it('aborts the server handler when the call deadline fires; the caller gets the timeout', async () => {
    const tool = await waitTool(300);
    observed.aborted = [];
    const result = await runTool(tool, {}, { source: 'agent' });
    expect(toolCauseFromResult(result)).toBeInstanceOf(ConnectionTimeoutError);
    expect(toolCauseFromResult(result)).toMatchObject({ operation: 'tools/call', timeoutMs: 300 });
    await waitFor(() => observed.aborted.length === 1);
    expect(observed.aborted).toEqual([{ reason: 'The client timed out the request' }]);
  });
});

describe('the cancellation notice', () => {
  let fault: FaultServer;
  beforeAll(async () => {
    fault = await startFaultServer(mcpHandler());
  });
  afterAll(async () => {
    await fault.close();
  });

  it('is never sent for initialize, and posts {requestId, reason} with the session headers', async () => {
    fault.setHandler(
      mcpHandler(
        { initialize: reply.hang(), 'tools/call': reply.hang() },
        { sessionId: 'session-9' },
      ),
    );
    const early = defineMcpClientConnection({
      name: 'f',
      transport: { url: fault.url },
      limits: { discovery: { timeoutMs: 200 } },
    });
    await expect(mountConnections([early])).rejects.toBeInstanceOf(ConnectionTimeoutError);
    expect(fault.count((request) => request.rpc?.method === 'notifications/cancelled')).toBe(0);
  });

  it('is bounded when the server never answers it: the caller is not held past the bound', async () => {
    fault.setHandler(
      mcpHandler(
        { 'tools/call': reply.hang(), 'notifications/cancelled': reply.hang() },
        { sessionId: 'session-7' },
      ),
    );
    const [tool] = await mountConnections([
      defineMcpClientConnection({ name: 'f', transport: { url: fault.url } }),
    ]);
    if (tool === undefined) throw new Error('nothing mounted');
    const controller = new AbortController();
    const pending = runTool(tool, { message: 'x' }, { source: 'agent', signal: controller.signal });
    await fault.waitForRequest((request) => request.rpc?.method === 'tools/call');
    const started = performance.now();
    controller.abort('stop');
    const result = await pending;
    const heldMs = performance.now() - started;
    expect(toolCauseFromResult(result)).toBe('stop');
    // The notice's bound (2 s), then the session DELETE's own bound (2 s) at most.
    expect(heldMs).toBeLessThan(4_500);
    const notice = await fault.waitForRequest(
      (request) => request.rpc?.method === 'notifications/cancelled',
    );
    expect(notice.json).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, reason: 'The client cancelled the request' },
    });
    expect(notice.headers['mcp-session-id']).toBe('session-7');
    const methods = fault.requests
      .slice(-3)
      .map((request) => request.rpc?.method ?? request.method);
    expect(methods).toEqual(['tools/call', 'notifications/cancelled', 'DELETE']);
  });
});
