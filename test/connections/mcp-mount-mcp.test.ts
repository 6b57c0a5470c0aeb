/**
 * Connection tools re-exposed through `mountMcp` on our own SDK `McpServer`, called by an SDK
 * `Client`: the upstream schemas and content blocks pass through, refusals keep the safe envelope.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnyRuntimeToolDefinition, mountMcp } from '../../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../../src/connections/index.js';
import { FAIL_TOOL_PAYLOAD, PEER_TOOL_NAMES } from '../fixtures/mcp-peers.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { useMcpPeers } from '../support/peer-suite.js';

const peers = useMcpPeers();
let relay: McpPeer;
let upstreamTools: readonly Tool[];

/** The upstream catalog as an SDK client sees it directly. */
async function listUpstream(url: string): Promise<readonly Tool[]> {
  const client = new Client({ name: 'upstream-reader', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  const url = peers.url('/sessionless-json');
  upstreamTools = await listUpstream(url);
  const tools: readonly AnyRuntimeToolDefinition[] = await mountConnections([
    defineMcpClientConnection({ name: 'upstream-peer', transport: { url } }),
  ]);
  relay = await startMcpPeer((server) => mountMcp(server, tools));
});
beforeEach(() => peers.resetLog());
afterAll(async () => {
  await relay.stop();
});

function upstreamCalls(): string[] {
  return peers.log.flatMap((entry) => entry.rpcMethods).filter((method) => method === 'tools/call');
}

describe('connection tools re-exposed through mountMcp', () => {
  it('lists every upstream tool with its description and input JSON Schema', async () => {
    const { tools } = await relay.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...PEER_TOOL_NAMES]);
    expect(upstreamTools.map((tool) => tool.name)).toEqual([...PEER_TOOL_NAMES]);
    for (const upstream of upstreamTools) {
      const relayed = tools.find((tool) => tool.name === upstream.name);
      // The upstream's own schema, unchanged: no zod round trip.
      expect({
        name: upstream.name,
        description: relayed?.description,
        schema: relayed?.inputSchema,
      }).toEqual({
        name: upstream.name,
        description: upstream.description,
        schema: upstream.inputSchema,
      });
    }
  });

  it('lists every upstream output schema as the upstream advertises it', async () => {
    const { tools } = await relay.client.listTools();
    expect(tools.map((tool) => [tool.name, tool.outputSchema])).toEqual(
      upstreamTools.map((tool) => [tool.name, tool.outputSchema]),
    );
    expect(
      tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name),
    ).toEqual(['echo', 'add', 'whoami']);
  });

  it('returns the upstream content blocks and structured content of a call', async () => {
    await relay.client.listTools(); // the SDK client checks structuredContent against these
    const result = await relay.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result).toEqual({
      content: [{ type: 'text', text: '5' }],
      structuredContent: { sum: 5 },
    });
    const echoed = await relay.client.callTool({ name: 'echo', arguments: { message: 'relay' } });
    expect(echoed).toEqual({
      content: [{ type: 'text', text: 'Echo: relay' }],
      structuredContent: { echoed: 'relay' },
    });
    const slow = await relay.client.callTool({ name: 'slow', arguments: { ms: 0 } });
    expect(slow).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(upstreamCalls()).toEqual(['tools/call', 'tools/call', 'tools/call']);
  });

  it('relays an upstream isError result as the upstream wrote it', async () => {
    const result = await relay.client.callTool({ name: 'fail', arguments: {} });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: JSON.stringify(FAIL_TOOL_PAYLOAD) }],
      structuredContent: { ...FAIL_TOOL_PAYLOAD },
    });
    expect(JSON.stringify(result)).not.toContain('upstream-peer');
    expect(JSON.stringify(result)).not.toContain(peers.origin);
  });

  it('refuses arguments that break the upstream schema before any upstream call', async () => {
    const result = await relay.client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
    expect(result.isError).toBe(true);
    const content = result.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    const envelope = JSON.parse(content[0]?.text ?? '{}');
    expect(envelope.error).toBe('VALIDATION_ERROR');
    expect(envelope.details.issues.map((issue: { path: unknown }) => issue.path)).toEqual([['a']]);
    expect(upstreamCalls()).toEqual([]);
  });
});
