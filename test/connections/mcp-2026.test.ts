/**
 * MCP 2026-07-28 against the MCP SDK v2's own servers on loopback: a dual-era server and a
 * modern-only one. What each mount and each call puts on the wire (request lines and the modern
 * headers), what a modern-only server costs an `auto` connection, and the typed errors when no
 * revision is shared. The 2025 peers of `mcp-peers.test.ts` pin that the 2025 wire is unchanged.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionProtocolError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { type McpV2PeerPath, type McpV2Peers, startMcpV2Peers } from '../fixtures/mcp-v2-peers.js';
import { rejectionOf } from '../support/fault-suite.js';
import { useMcpPeers } from '../support/peer-suite.js';

const v1 = useMcpPeers();
let v2: McpV2Peers;
beforeAll(async () => {
  v2 = await startMcpV2Peers();
});
afterAll(async () => {
  await v2.close();
});
beforeEach(() => {
  v2.resetLog();
  v1.resetLog();
});

function connection(path: McpV2PeerPath, protocolVersion?: '2026-07-28' | '2025-11-25') {
  return defineMcpClientConnection({
    name: 'v2',
    transport: {
      url: v2.url(path),
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
    },
  });
}

function echo(tools: readonly AnyRuntimeToolDefinition[]): AnyRuntimeToolDefinition {
  const tool = tools.find((candidate) => candidate.name === 'echo');
  if (tool === undefined) throw new Error('echo not mounted');
  return tool;
}

/** Each request as `METHOD path jsonrpc-method status`. */
function lines(): string[] {
  return v2.log.map((entry) =>
    `${entry.method} ${entry.path} ${entry.rpcMethods.join(',')} ${entry.status}`.trim(),
  );
}

/** The modern headers of each request (absent ones left out). */
function modernHeaders(): Record<string, string>[] {
  return v2.log.map((entry) =>
    Object.fromEntries(
      ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id']
        .filter((name) => entry.headers[name] !== undefined)
        .map((name) => [name, entry.headers[name] ?? '']),
    ),
  );
}

/** The call's result, relayed as the server wrote it (its `resultType` and `_meta` included). */
const ECHOED = {
  ok: true,
  data: {
    content: [{ type: 'text', text: 'echo: hi' }],
    resultType: 'complete',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'v2-peer', version: '1.0.0' } },
  },
};

describe('a connection pinned to 2026-07-28, against a dual-era v2 server', () => {
  it('mounts with one POST and calls with one POST, each with the modern headers and envelope', async () => {
    const tools = await mountConnections([connection('/dual', '2026-07-28')]);
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo', 'fail', 'slow']);
    expect(lines()).toEqual(['POST /dual tools/list 200']);
    v2.resetLog();
    expect(await runTool(echo(tools), { message: 'hi' }, { source: 'agent' })).toEqual(ECHOED);
    expect(lines()).toEqual(['POST /dual tools/call 200']);
    expect(modernHeaders()).toEqual([
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    ]);
    expect(v2.log[0]?.body).toEqual({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: { message: 'hi' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'stitchkit-transport', version: '0.1.0' },
        },
      },
    });
  });

  it("relays an isError result as the tool's failure, still in one POST", async () => {
    const tools = await mountConnections([connection('/dual', '2026-07-28')]);
    v2.resetLog();
    const fail = tools.find((tool) => tool.name === 'fail');
    if (fail === undefined) throw new Error('fail not mounted');
    const result = await runTool(fail, {}, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'UPSTREAM_TOOL_ERROR' });
    expect(lines()).toEqual(['POST /dual tools/call 200']);
  });
});

describe('an auto connection against a modern-only v2 server', () => {
  it('moves to the modern wire when initialize is refused with -32022, and calls with one POST', async () => {
    const tools = await mountConnections([connection('/modern-only')]);
    expect(lines()).toEqual([
      'POST /modern-only initialize 400',
      'POST /modern-only tools/list 200',
    ]);
    v2.resetLog();
    expect(await runTool(echo(tools), { message: 'hi' }, { source: 'agent' })).toEqual(ECHOED);
    expect(lines()).toEqual(['POST /modern-only tools/call 200']);
  });

  it('pinned to 2025-11-25, fails with the versions both sides speak and never tries legacy SSE', async () => {
    const error = await rejectionOf(mountConnections([connection('/modern-only', '2025-11-25')]));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({
      operation: 'initialize',
      rpcCode: -32022,
      message:
        'Connection "v2" supports none of the MCP protocol versions this client speaks (server: 2026-07-28; client: 2025-11-25)',
    });
    expect(lines()).toEqual(['POST /modern-only initialize 400']);
  });
});

describe('an auto connection against a dual-era v2 server', () => {
  it('still speaks 2025-11-25 (the handshake it starts with succeeds): three POSTs per call', async () => {
    const tools = await mountConnections([connection('/dual')]);
    v2.resetLog();
    expect(await runTool(echo(tools), { message: 'hi' }, { source: 'agent' })).toEqual({
      ok: true,
      data: { content: [{ type: 'text', text: 'echo: hi' }] },
    });
    expect(lines()).toEqual([
      'POST /dual initialize 200',
      'POST /dual notifications/initialized 202',
      'POST /dual tools/call 200',
    ]);
  });
});

describe('a connection pinned to 2026-07-28, against a 2025-only v1 server', () => {
  it("fails discovery with the server's own JSON-RPC refusal, code and message", async () => {
    const pinned = defineMcpClientConnection({
      name: 'v1',
      transport: { url: v1.url('/stateless-json'), protocolVersion: '2026-07-28' },
    });
    const error = await rejectionOf(mountConnections([pinned]));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    const refusal = error as ConnectionProtocolError;
    expect({
      operation: refusal.operation,
      rpcCode: refusal.rpcCode,
      message: refusal.message,
    }).toEqual({
      operation: 'tools/list',
      rpcCode: -32000,
      message: 'Connection "v1" answered HTTP 400 with MCP error (code -32000)',
    });
    expect(refusal.rpcMessage).toContain('Unsupported protocol version');
    expect(v1.log.map((entry) => `${entry.method} ${entry.rpcMethods.join(',')}`)).toEqual([
      'POST tools/list',
    ]);
  });
});

describe('transport.protocolVersion', () => {
  it.each([
    [
      { protocolVersion: '2024-01-01' },
      "transport.protocolVersion must be 'auto', '2026-07-28' or '2025-11-25'",
    ],
    [
      { protocolVersion: '2026-07-28', type: 'sse' },
      "MCP 2026-07-28 has no legacy SSE transport; drop transport.type 'sse' or pin '2025-11-25'",
    ],
  ])('refuses %j at definition', (transport, message) => {
    expect(() =>
      defineMcpClientConnection({
        name: 'bad',
        transport: { url: 'http://127.0.0.1:1/mcp', ...transport } as never,
      }),
    ).toThrow(`MCP connection "bad": ${message}`);
  });
});

describe('progress and cancellation on the modern wire', () => {
  it("relays progress from the call's own stream, and cancelling closes the request and nothing else", async () => {
    const tools = await mountConnections([connection('/dual', '2026-07-28')]);
    const slow = tools.find((tool) => tool.name === 'slow');
    if (slow === undefined) throw new Error('slow not mounted');
    v2.resetLog();
    const controller = new AbortController();
    const reason = new Error('caller stopped');
    const progress: unknown[] = [];
    const started = v2.slow.started;
    const aborted = v2.slow.aborted;
    const result = runTool(
      slow,
      {},
      {
        source: 'agent',
        signal: controller.signal,
        reportProgress: (...report) => {
          progress.push(report);
          controller.abort(reason);
        },
      },
    );
    const outcome = await result;
    expect(outcome).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(toolCauseFromResult(outcome)).toBe(reason);
    expect(progress).toEqual([[1, 2, 'half']]);
    await vi.waitFor(() => expect(v2.slow.aborted).toBe(aborted + 1), { timeout: 5_000 });
    expect(v2.slow.started).toBe(started + 1);
    expect(lines()).toEqual(['POST /dual tools/call 200']);
    expect(v2.log[0]?.headers['mcp-name']).toBe('slow');
  });
});
