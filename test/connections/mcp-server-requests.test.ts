/**
 * What the server sends on a call's stream besides its answer, on Streamable HTTP and legacy
 * HTTP+SSE: progress for our request reaches the caller in order (asked for only when someone
 * listens); requests are answered (`ping` with the empty result the specification requires,
 * anything else, here `elicitation/create`, with -32601) and the call still completes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as SdkServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { ElicitResultSchema, EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mountMcp, runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionTimeoutError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';

const outcomes: string[] = [];

const progressTokens: unknown[] = [];

function registerAskingTools(server: McpServer): void {
  server.registerTool(
    'slowReporter',
    {
      description: 'Reports progress `reports` times, `everyMs` apart, then answers',
      inputSchema: { reports: z.number(), everyMs: z.number() },
    },
    async ({ reports, everyMs }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= reports; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, everyMs));
        if (extra.signal.aborted) break;
        if (progressToken === undefined) continue;
        try {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: reports },
          });
        } catch {
          break; // the client gave the call up and closed its stream
        }
      }
      return { content: [{ type: 'text', text: 'slow done' }] };
    },
  );
  server.registerTool(
    'reporter',
    { description: 'Reports progress three times' },
    async (extra) => {
      const progressToken = extra._meta?.progressToken;
      progressTokens.push(progressToken);
      if (progressToken !== undefined) {
        for (const step of [1, 2, 3]) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: 3, message: `step ${step}` },
          });
        }
      }
      return { content: [{ type: 'text', text: 'reported' }] };
    },
  );
  server.registerTool('pinger', { description: 'Pings the client mid-call' }, async (extra) => {
    const answer = await extra.sendRequest({ method: 'ping' }, EmptyResultSchema, {
      timeout: 5_000,
    });
    outcomes.push(`ping answered ${JSON.stringify(answer)}`);
    return { content: [{ type: 'text', text: 'pinged' }] };
  });
  server.registerTool('asker', { description: 'Asks the client to elicit' }, async (extra) => {
    try {
      await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: { message: 'Your name?', requestedSchema: { type: 'object', properties: {} } },
        },
        ElicitResultSchema,
        { timeout: 5_000 },
      );
      outcomes.push('elicitation answered');
    } catch (error) {
      outcomes.push(`elicitation refused ${(error as { code?: number }).code}`);
    }
    return { content: [{ type: 'text', text: 'asked' }] };
  });
}

let streamable: McpPeer;
let legacyHttp: Server;
let legacyUrl: string;

beforeAll(async () => {
  streamable = await startMcpPeer(registerAskingTools);
  const sessions = new Map<string, SSEServerTransport>();
  legacyHttp = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      const server = new SdkServer({ name: 'legacy', version: '1.0.0' });
      registerAskingTools(server);
      void server.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (transport === undefined) res.writeHead(404).end();
      else {
        // A POST after the client closed its stream (our cancellation notice) is refused.
        transport.handlePostMessage(req, res).catch(() => {
          if (!res.headersSent) res.writeHead(404).end();
        });
      }
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((ready) => legacyHttp.listen(0, '127.0.0.1', ready));
  legacyUrl = `http://127.0.0.1:${(legacyHttp.address() as AddressInfo).port}/sse`;
});
afterAll(async () => {
  await streamable.stop();
  legacyHttp.closeAllConnections();
  await new Promise<void>((done) => legacyHttp.close(() => done()));
});

describe.each([
  ['Streamable HTTP', () => ({ url: streamable.url })],
  ['legacy HTTP+SSE', () => ({ url: legacyUrl, type: 'sse' as const })],
])('server requests during a call on %s', (_label, transport) => {
  async function call(name: string) {
    const tools = await mountConnections([
      defineMcpClientConnection({ name: 'asking', transport: transport(), timeoutMs: 5_000 }),
    ]);
    const tool = tools.find((candidate) => candidate.name === name);
    if (tool === undefined) throw new Error(`${name} not mounted`);
    outcomes.length = 0;
    const started = performance.now();
    const result = await runTool(tool, {}, { source: 'agent' });
    return { result, elapsedMs: performance.now() - started };
  }

  it('relays three upstream progress reports to reportProgress, in order', async () => {
    const tools = await mountConnections([
      defineMcpClientConnection({ name: 'asking', transport: transport(), timeoutMs: 5_000 }),
    ]);
    const tool = tools.find((candidate) => candidate.name === 'reporter');
    if (tool === undefined) throw new Error('reporter not mounted');
    progressTokens.length = 0;
    const reports: unknown[] = [];
    const result = await runTool(
      tool,
      {},
      { source: 'agent', reportProgress: (...report) => void reports.push(report) },
    );
    expect(result.ok).toBe(true);
    expect(reports).toEqual([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);
    // Without a listener the upstream is not asked for progress.
    await runTool(tool, {}, { source: 'agent' });
    expect(progressTokens).toEqual([2, undefined]);
  });

  it('relays upstream progress through mountMcp to an SDK client onprogress', async () => {
    const tools = await mountConnections([
      defineMcpClientConnection({ name: 'asking', transport: transport(), timeoutMs: 5_000 }),
    ]);
    const gateway = await startMcpPeer((server) => mountMcp(server, tools));
    try {
      const reports: unknown[] = [];
      const result = await gateway.client.callTool({ name: 'reporter', arguments: {} }, undefined, {
        onprogress: (report) => void reports.push(report),
      });
      expect(result.isError).toBeUndefined();
      expect(reports).toEqual(
        [1, 2, 3].map((progress) => ({ progress, total: 3, message: `step ${progress}` })),
      );
    } finally {
      await gateway.stop();
    }
  });

  async function slowCall(call: { timeoutMs: number; maxTotalTimeoutMs?: number }, args: object) {
    const [tool] = await mountConnections([
      defineMcpClientConnection({
        name: 'asking',
        transport: transport(),
        tools: { allow: ['slowReporter'] },
        limits: { call: call },
      }),
    ]);
    if (tool === undefined) throw new Error('slowReporter not mounted');
    const started = performance.now();
    const result = await runTool(tool, args, { source: 'agent' });
    return { result, elapsedMs: performance.now() - started };
  }

  it('lets progress restart the window: a 1.2 s call passes under timeoutMs 500 with maxTotalTimeoutMs', async () => {
    const { result } = await slowCall(
      { timeoutMs: 500, maxTotalTimeoutMs: 5_000 },
      { reports: 6, everyMs: 200 },
    );
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'slow done' }] },
    });
  });

  it('times the same call out under timeoutMs 500 alone', async () => {
    const { result } = await slowCall({ timeoutMs: 500 }, { reports: 6, everyMs: 200 });
    expect(toolCauseFromResult(result)).toBeInstanceOf(ConnectionTimeoutError);
    expect(toolCauseFromResult(result)).toMatchObject({ operation: 'tools/call', timeoutMs: 500 });
  });

  it('keeps maxTotalTimeoutMs a hard cap even with endless progress', async () => {
    const { result, elapsedMs } = await slowCall(
      { timeoutMs: 500, maxTotalTimeoutMs: 1_000 },
      { reports: 1_000, everyMs: 100 },
    );
    expect(toolCauseFromResult(result)).toBeInstanceOf(ConnectionTimeoutError);
    expect(elapsedMs).toBeGreaterThanOrEqual(1_000);
    // The cap from the request's start, plus the handshake and the bounded cancellation notice.
    expect(elapsedMs).toBeLessThan(4_000);
  });

  it('answers ping with an empty result and completes', async () => {
    const { result, elapsedMs } = await call('pinger');
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'pinged' }] },
    });
    expect(outcomes).toEqual(['ping answered {}']);
    expect(elapsedMs).toBeLessThan(1_000);
  });

  it('refuses elicitation with -32601 and completes', async () => {
    const { result, elapsedMs } = await call('asker');
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'asked' }] },
    });
    expect(outcomes).toEqual(['elicitation refused -32601']);
    expect(elapsedMs).toBeLessThan(1_000);
  });
});
