/**
 * Output schemas: a discovered tool's `outputSchema` is converted once at mount and checks every
 * successful result's `structuredContent`; an unconvertible one is reported and the tool mounts
 * unchecked; the schema travels through the manifest and `mountMcp` to a gateway's SDK client.
 * The upstream is hand-written (the fault server): the SDK server validates its own output, so it
 * cannot send a mismatch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  buildToolManifest,
  mountMcp,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionProtocolError,
  defineMcpClientConnection,
  describeCatalog,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';
import { type FaultServer, mcp, mcpHandler, type SeenRequest } from '../fixtures/fault-server.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { HANDSHAKE, useFaultServers, wire } from '../support/fault-suite.js';

const { start } = useFaultServers();

const COUNT_OUTPUT = {
  type: 'object',
  properties: { count: { type: 'number' } },
  required: ['count'],
} as const;
/** A pattern zod cannot compile: the schema is unconvertible. */
const BROKEN_OUTPUT = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '(' } },
} as const;
const TOOLS = [
  {
    name: 'count',
    description: 'Counts things.',
    inputSchema: { type: 'object', properties: { answer: { type: 'string' } } },
    outputSchema: COUNT_OUTPUT,
  },
  {
    name: 'loose',
    description: 'Declares an output schema zod cannot convert.',
    inputSchema: { type: 'object' },
    outputSchema: BROKEN_OUTPUT,
  },
  { name: 'plain', description: 'Declares no output schema.', inputSchema: { type: 'object' } },
];

/** The `tools/call` results the upstream sends, chosen by `arguments.answer`. */
const ANSWERS: Readonly<Record<string, unknown>> = {
  match: { content: [{ type: 'text', text: '3' }], structuredContent: { count: 3 } },
  mismatch: { content: [{ type: 'text', text: 'x' }], structuredContent: { count: 'x' } },
  missing: { content: [{ type: 'text', text: '3' }] },
  refused: {
    isError: true,
    content: [{ type: 'text', text: 'no count today' }],
    structuredContent: { reason: 'closed' },
  },
};

function answer(request: SeenRequest) {
  const args = (request.rpc?.params?.arguments ?? {}) as { answer?: string };
  return mcp.callResult(request.rpc?.id ?? null, ANSWERS[args.answer ?? 'match'] ?? ANSWERS.match);
}

async function mountUpstream(server: FaultServer, skipped: SkippedTool[] = []) {
  return mountConnections(
    [defineMcpClientConnection({ name: 'counter', transport: { url: server.url } })],
    { onSkippedTool: (entry) => skipped.push(entry) },
  );
}

function named(tools: readonly AnyRuntimeToolDefinition[], name: string): AnyRuntimeToolDefinition {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`${name} not mounted`);
  return tool;
}

async function upstream(): Promise<FaultServer> {
  return start(mcpHandler({ 'tools/call': answer }, { tools: TOOLS }));
}

describe('a tool with an outputSchema', () => {
  it('passes a result whose structuredContent matches', async () => {
    const server = await upstream();
    const count = named(await mountUpstream(server), 'count');
    const result = await runTool(count, { answer: 'match' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: ANSWERS.match });
  });

  it('refuses a mismatch as ConnectionProtocolError at tools/call, after one request', async () => {
    const server = await upstream();
    const count = named(await mountUpstream(server), 'count');
    const before = server.requests.length;
    const result = await runTool(count, { answer: 'mismatch' }, { source: 'agent' });
    expect(result).toEqual({
      ok: false,
      code: 'CONNECTION_PROTOCOL_ERROR',
      details: {
        message: 'The connection returned a malformed response.',
        reason: 'protocol-error',
        operation: 'tools/call',
        phase: 'call',
      },
      retryable: false,
    });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({
      message:
        'Connection "counter" returned structuredContent that does not match the outputSchema of tool "count" (count: Invalid input: expected number, received string)',
      operation: 'tools/call',
      phase: 'call',
      rpcCode: undefined,
    });
    expect(wire(server, before)).toEqual([...HANDSHAKE, 'POST /mcp tools/call']);
  });

  it('refuses a result without structuredContent as ConnectionProtocolError', async () => {
    const server = await upstream();
    const count = named(await mountUpstream(server), 'count');
    const result = await runTool(count, { answer: 'missing' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_PROTOCOL_ERROR' });
    expect(toolCauseFromResult(result)).toMatchObject({
      message:
        'Connection "counter" returned no structuredContent for tool "count", whose outputSchema requires it',
      operation: 'tools/call',
    });
  });

  it('does not check an isError result: it stays the upstream refusal', async () => {
    const server = await upstream();
    const count = named(await mountUpstream(server), 'count');
    const result = await runTool(count, { answer: 'refused' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'UPSTREAM_TOOL_ERROR' });
  });

  it('is carried by the manifest as the upstream wrote it', async () => {
    const server = await upstream();
    const tools = await mountUpstream(server);
    const manifest = buildToolManifest(tools, { transport: 'MCP' });
    expect(manifest.map((entry) => [entry.name, entry.outputSchema])).toEqual([
      ['count', COUNT_OUTPUT],
      ['loose', undefined],
      ['plain', undefined],
    ]);
  });
});

describe('an outputSchema that cannot be converted', () => {
  it('is reported through onSkippedTool; the tool mounts unchecked and is not counted as skipped', async () => {
    const server = await upstream();
    const skipped: SkippedTool[] = [];
    const tools = await mountUpstream(server, skipped);
    expect(tools.map((tool) => tool.name)).toEqual(['count', 'loose', 'plain']);
    expect(skipped).toEqual([
      {
        connection: 'counter',
        tool: 'loose',
        reason: 'unconvertible-output-schema',
        message:
          'outputSchema cannot be converted (Invalid regular expression: /(/: Unterminated group); the tool is mounted without output checking',
      },
    ]);
    expect(describeCatalog(tools).totals).toMatchObject({ tools: 3, skipped: 0 });
    const loose = named(tools, 'loose');
    expect(loose.outputJsonSchema).toBeUndefined();
    const result = await runTool(loose, { answer: 'mismatch' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: ANSWERS.mismatch });
  });
});

describe('re-exposed through mountMcp to an SDK client', () => {
  let relay: McpPeer | undefined;
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
  });

  async function relayed(server: FaultServer): Promise<McpPeer> {
    const tools = await mountUpstream(server);
    relay = await startMcpPeer((mcpServer) => mountMcp(mcpServer, tools));
    return relay;
  }

  it('advertises the upstream outputSchema only where it is checked', async () => {
    const { client } = await relayed(await upstream());
    const { tools } = await client.listTools();
    // The SDK server stamps the dialect of its converter on every advertised schema.
    expect(tools.map((tool) => [tool.name, tool.outputSchema])).toEqual([
      ['count', { $schema: 'http://json-schema.org/draft-07/schema#', ...COUNT_OUTPUT }],
      ['loose', undefined],
      ['plain', undefined],
    ]);
  });

  it('relays a matching result with its structuredContent, which the SDK client validates', async () => {
    const { client } = await relayed(await upstream());
    await client.listTools(); // the SDK client caches the output validators here
    const result = await client.callTool({ name: 'count', arguments: { answer: 'match' } });
    expect(result).toEqual(ANSWERS.match);
  });

  it('answers an upstream mismatch with the safe envelope, which the SDK client accepts', async () => {
    const { client } = await relayed(await upstream());
    await client.listTools();
    const result = await client.callTool({ name: 'count', arguments: { answer: 'mismatch' } });
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            error: 'CONNECTION_PROTOCOL_ERROR',
            details: {
              message: 'The connection returned a malformed response.',
              reason: 'protocol-error',
              operation: 'tools/call',
              phase: 'call',
            },
            retryable: false,
          }),
        },
      ],
    });
  });
});
