/**
 * The standalone GET stream a relaying call holds, against a server that misbehaves on it: a 405
 * (allowed) or a redirect (never followed) leave the call on its own stream; a GET that never
 * answers ends at the handshake deadline, named; an oversized stream ends in the size error. In
 * every case the stream is closed at teardown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runTool, type ToolCallerHandler, toolCauseFromResult } from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  type McpClientConnectionConfig,
  mountConnections,
} from '../../src/connections/index.js';
import {
  type FaultReply,
  type FaultServer,
  mcpHandler,
  reply,
  startFaultServer,
} from '../fixtures/fault-server.js';

const SAMPLING_CALLER: ToolCallerHandler = {
  capabilities: { sampling: {} },
  request: () => ({ result: {} }),
};

let servers: FaultServer[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

/** Starts a server whose standalone GET answers `get`, mounts its echo tool, and calls it relaying. */
async function callRelaying(get: FaultReply, limits?: McpClientConnectionConfig['limits']) {
  const server = await startFaultServer(mcpHandler({ GET: get }, { sessionId: 's-1' }));
  servers.push(server);
  const [echo] = await mountConnections([
    defineMcpClientConnection({
      name: 'faulty',
      transport: { url: server.url },
      ...(limits === undefined ? {} : { limits }),
    }),
  ]);
  if (echo === undefined) throw new Error('echo was not mounted');
  const before = server.requests.length;
  const result = await runTool(
    echo,
    { message: 'hi' },
    { source: 'agent', caller: SAMPLING_CALLER },
  );
  const requests = server.requests
    .slice(before)
    .map((request) => `${request.method} ${request.rpc?.method ?? ''}`.trim());
  return { result, requests, server };
}

describe('the standalone stream of a relaying call', () => {
  it('is refused with 405: the call goes on without it', async () => {
    const { result, requests } = await callRelaying(reply.status(405));
    expect(result).toEqual({ ok: true, data: { content: [{ type: 'text', text: 'Echo: hi' }] } });
    expect(requests).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'POST tools/call',
      'DELETE',
    ]);
  });

  it('is redirected: the redirect is not followed and the call goes on', async () => {
    const { result, server } = await callRelaying(reply.redirect(302, '/elsewhere'));
    expect(result.ok).toBe(true);
    expect(server.count((request) => request.path === '/elsewhere')).toBe(0);
  });

  it('never answers: the call ends at the handshake deadline, during standalone-stream', async () => {
    const { result, server } = await callRelaying(reply.hang(), {
      discovery: { timeoutMs: 300 },
    });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_TIMEOUT' });
    expect(toolCauseFromResult(result)).toMatchObject({
      operation: 'standalone-stream',
      phase: 'discovery',
    });
    expect(server.count((request) => request.rpc?.method === 'tools/call')).toBe(0);
    // The hung GET was abandoned by the client at teardown.
    await expect.poll(() => server.closedRequests()).toBe(1);
  });

  it('floods: the bytes count toward the call and end it in the size error, the stream closed', async () => {
    const flood = `: ${'x'.repeat(64 * 1024)}\n\n`;
    const { result, server } = await callRelaying(reply.sse([flood], { keepOpen: true }), {
      call: { maxResponseBytes: 4 * 1024 },
      discovery: { maxResponseBytes: 16 * 1024 },
    });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_RESPONSE_TOO_LARGE' });
    await expect.poll(() => server.openStreams()).toBe(0);
  });
});
