/**
 * A host answers what an upstream MCP tool asks its caller, through `mountAgent` (with the real
 * `ai` package) and `runTool`, with the optional `caller` handler; without one the upstream gets
 * -32601. The same relay works on the legacy HTTP+SSE wire, whose one stream carries every
 * server request, and upstream log messages reach the handler's `log`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceServer, startConformanceServer } from '../../conformance/server.js';
import type { StatefulHost } from '../../conformance/stateful-http.js';
import {
  type AnyRuntimeToolDefinition,
  mountAgent,
  runTool,
  type ToolCallerHandler,
  type ToolLogMessage,
} from '../../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../../src/connections/index.js';
import { modelCalling, run, toolMessageOf } from '../support/agent-model.js';

/** A legacy HTTP+SSE host of the conformance server: GET /sse, POST /messages?sessionId=…. */
async function startLegacyHost(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, SSEServerTransport>();
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      void createConformanceServer().connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && transport !== undefined) {
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A host that samples its own model and answers elicitation, recording what it was asked. */
function answeringHost() {
  const asked: string[] = [];
  const logs: ToolLogMessage[] = [];
  const caller: ToolCallerHandler = {
    capabilities: { sampling: {}, elicitation: {} },
    request: (request) => {
      asked.push(request.method);
      return request.method === 'sampling/createMessage'
        ? {
            result: {
              role: 'assistant',
              content: { type: 'text', text: 'host sampled' },
              model: 'host-model',
            },
          }
        : { result: { action: 'decline' } };
    },
    log: (message) => {
      logs.push(message);
    },
  };
  return { caller, asked, logs };
}

const tool = (tools: readonly AnyRuntimeToolDefinition[], name: string) => {
  const found = tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};

let streamable: StatefulHost;
let legacy: Awaited<ReturnType<typeof startLegacyHost>>;
let streamableTools: readonly AnyRuntimeToolDefinition[];
let legacyTools: readonly AnyRuntimeToolDefinition[];

beforeAll(async () => {
  streamable = await startConformanceServer();
  legacy = await startLegacyHost();
  streamableTools = await mountConnections([
    defineMcpClientConnection({ name: 'streamable', transport: { url: streamable.url } }),
  ]);
  legacyTools = await mountConnections([
    defineMcpClientConnection({ name: 'legacy', transport: { url: legacy.url, type: 'sse' } }),
  ]);
});
afterAll(async () => {
  await streamable.close();
  await legacy.close();
});

describe('a host answers through its caller handler', () => {
  it('mountAgent: the model calls a tool that samples, and the host answers it', async () => {
    const host = answeringHost();
    const tools = mountAgent({ runtimeTools: streamableTools, caller: host.caller });
    const model = modelCalling('test_sampling', { prompt: 'summarise' });
    await run(model, tools);
    expect(JSON.stringify(toolMessageOf(model))).toContain('LLM response: host sampled');
    expect(host.asked).toEqual(['sampling/createMessage']);
  });

  it('runTool: elicitation on the call stream gets the host answer as written', async () => {
    const host = answeringHost();
    const result = await runTool(
      tool(streamableTools, 'test_elicitation'),
      { message: 'ok?' },
      { source: 'agent', caller: host.caller },
    );
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'User response: action=decline, content={}' }] },
    });
  });

  it('without a handler, the upstream sees -32601', async () => {
    const result = await runTool(
      tool(streamableTools, 'test_sampling'),
      { prompt: 'x', via: 'post', force: true },
      { source: 'agent' },
    );
    expect(result).toMatchObject({
      ok: false,
      code: 'UPSTREAM_TOOL_ERROR',
      details: { upstream: 'Sampling refused: -32601' },
    });
  });

  it('on the legacy wire: sampling and elicitation on its one stream, and log messages', async () => {
    const host = answeringHost();
    const sampled = await runTool(
      tool(legacyTools, 'test_sampling'),
      { prompt: 'x' },
      { source: 'agent', caller: host.caller },
    );
    const elicited = await runTool(
      tool(legacyTools, 'test_elicitation'),
      { message: 'ok?' },
      { source: 'agent', caller: host.caller },
    );
    await runTool(
      tool(legacyTools, 'test_tool_with_logging'),
      {},
      {
        source: 'agent',
        caller: host.caller,
      },
    );
    expect([sampled, elicited].map((result) => result.ok)).toEqual([true, true]);
    expect(host.asked).toEqual(['sampling/createMessage', 'elicitation/create']);
    expect(host.logs.map((log) => log.data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
  });

  it('a caller that never answers is bounded by the call deadline: the call times out and the handler is aborted', async () => {
    const [slow] = (
      await mountConnections([
        defineMcpClientConnection({
          name: 'slow',
          transport: { url: streamable.url },
          limits: { call: { timeoutMs: 300 } },
          tools: { allow: ['test_elicitation'] },
        }),
      ])
    ).filter((candidate) => candidate.name === 'test_elicitation');
    let handlerSignal: AbortSignal | undefined;
    const result = await runTool(
      slow as AnyRuntimeToolDefinition,
      { message: 'still there?' },
      {
        source: 'agent',
        caller: {
          capabilities: { elicitation: {} },
          request: (_request, { signal }) => {
            handlerSignal = signal;
            return new Promise(() => {});
          },
        },
      },
    );
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_TIMEOUT' });
    expect(handlerSignal?.aborted).toBe(true);
  });
});
