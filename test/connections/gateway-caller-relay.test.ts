/**
 * Through a gateway (`mountMcp` in front of a mounted connection), what the upstream asks the
 * caller reaches the gateway's own client and its answer goes back: sampling on the session's
 * standalone GET stream, elicitation and roots on the call's POST stream, log messages and progress
 * as notifications of the caller's request. A client that declared nothing makes the upstream see
 * -32601 at once, and the standalone stream is opened only for a caller that can answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../conformance/gateway.js';
import { startConformanceServer } from '../../conformance/server.js';
import type { HostedRequest, StatefulHost } from '../../conformance/stateful-http.js';

let upstream: StatefulHost;
let gateway: StatefulHost;
const clients: Client[] = [];

beforeAll(async () => {
  upstream = await startConformanceServer();
  gateway = await startGateway(upstream.url);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

/** What the gateway's client was asked, in order. */
interface Asked {
  readonly sampling: unknown[];
  readonly elicitation: unknown[];
  readonly roots: number;
}

/** A client of the gateway that declared sampling, elicitation and roots, and answers each. */
async function answeringClient(): Promise<{ client: Client; asked: Asked; logs: unknown[] }> {
  const client = new Client(
    { name: 'caller', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  const asked = { sampling: [] as unknown[], elicitation: [] as unknown[], roots: 0 };
  const logs: unknown[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    asked.sampling.push(request.params);
    return {
      role: 'assistant',
      content: { type: 'text', text: 'sampled by the caller' },
      model: 'caller-model',
      stopReason: 'endTurn',
    };
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.elicitation.push(request.params);
    return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
  });
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked.roots += 1;
    return { roots: [{ uri: 'file:///work', name: 'work' }] };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  clients.push(client);
  return { client, asked, logs };
}

async function plainClient(): Promise<Client> {
  const client = new Client({ name: 'plain', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  clients.push(client);
  return client;
}

/** The upstream requests one gateway call caused, as `METHOD rpc-method` lines. */
async function upstreamRequestsOf(call: () => Promise<unknown>): Promise<string[]> {
  const before = upstream.requests.length;
  await call();
  const line = (request: HostedRequest) =>
    request.rpcMethod === undefined ? request.method : `${request.method} ${request.rpcMethod}`;
  return upstream.requests.slice(before).map(line);
}

const textOf = (result: unknown) =>
  (result as { content: { type: string; text?: string }[] }).content[0]?.text;

describe('a caller that declared sampling, elicitation and roots', () => {
  it('answers sampling sent on the standalone GET stream, and the upstream uses its answer', async () => {
    const { client, asked } = await answeringClient();
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    expect(textOf(result)).toBe('LLM response: sampled by the caller');
    expect(asked.sampling).toEqual([
      { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 100 },
    ]);
  });

  it('answers sampling sent on the call stream too', async () => {
    const { client, asked } = await answeringClient();
    const result = await client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'on the post', via: 'post' },
    });
    expect(textOf(result)).toBe('LLM response: sampled by the caller');
    expect(asked.sampling).toHaveLength(1);
  });

  it('answers elicitation on the call stream and on the standalone stream', async () => {
    const { client, asked } = await answeringClient();
    for (const via of ['post', 'standalone']) {
      const result = await client.callTool({
        name: 'test_elicitation',
        arguments: { message: `who are you (${via})?`, via },
      });
      expect(textOf(result)).toBe(
        'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      );
    }
    expect(asked.elicitation.map((params) => (params as { message: string }).message)).toEqual([
      'who are you (post)?',
      'who are you (standalone)?',
    ]);
  });

  it('answers roots/list', async () => {
    const { client, asked } = await answeringClient();
    const result = await client.callTool({ name: 'test_roots', arguments: {} });
    expect(textOf(result)).toBe('Roots: [{"uri":"file:///work","name":"work"}]');
    expect(asked.roots).toBe(1);
  });

  it('receives the upstream log messages in order, as the upstream wrote them', async () => {
    const { client, logs } = await answeringClient();
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual(
      ['Tool execution started', 'Tool processing data', 'Tool execution completed'].map(
        (data) => ({ level: 'info', logger: 'conformance', data }),
      ),
    );
  });

  it('receives the upstream progress', async () => {
    const { client } = await answeringClient();
    const reports: unknown[] = [];
    await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      CallToolResultSchema,
      {
        onprogress: (report) => reports.push(report),
      },
    );
    expect(reports).toEqual([
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
      { progress: 100, total: 100 },
    ]);
  });

  it('costs the upstream one standalone GET per call, plus one POST per answer', async () => {
    const { client } = await answeringClient();
    expect(
      await upstreamRequestsOf(() => client.callTool({ name: 'test_simple_text', arguments: {} })),
    ).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'POST tools/call',
      'DELETE',
    ]);
    expect(
      await upstreamRequestsOf(() =>
        client.callTool({ name: 'test_sampling', arguments: { prompt: 'x', via: 'post' } }),
      ),
    ).toEqual([
      'POST initialize',
      'POST notifications/initialized',
      'GET',
      'POST tools/call',
      'POST',
      'DELETE',
    ]);
  });
});

describe('a caller that declared nothing', () => {
  it('is declared upstream as able to answer nothing', async () => {
    const client = await plainClient();
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe('The client does not support sampling');
  });

  it('makes the upstream see -32601 at once when it asks anyway', async () => {
    const client = await plainClient();
    const startedAt = Date.now();
    const result = await client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'hi', via: 'post', force: true },
    });
    expect(textOf(result)).toBe('Sampling refused: -32601');
    // The connection's deadline is 30 s: the refusal did not wait for it.
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it('opens no standalone stream: the call stays at its requests (three, and the session DELETE)', async () => {
    const client = await plainClient();
    expect(
      await upstreamRequestsOf(() => client.callTool({ name: 'test_simple_text', arguments: {} })),
    ).toEqual(['POST initialize', 'POST notifications/initialized', 'POST tools/call', 'DELETE']);
  });
});
