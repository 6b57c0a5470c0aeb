/**
 * MCP 2026-07-28 against the MCP SDK v2's own servers on loopback: a dual-revision server and a
 * stateless-only one. What each mount and each call puts on the wire (request lines and the stateless
 * headers), what a stateless-only server costs an `auto` connection, and the typed errors when no
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
  describeCatalog,
  mountConnections,
} from '../../src/connections/index.js';
import { mcpHandler, mcpMessage } from '../fixtures/fault-mcp.js';
import { reply } from '../fixtures/fault-replies.js';
import type { FaultServer } from '../fixtures/fault-server.js';
import type { SeenRequest } from '../fixtures/fault-types.js';
import { type McpV2PeerPath, type McpV2Peers, startMcpV2Peers } from '../fixtures/mcp-v2-peers.js';
import { rejectionOf, useFaultServers, wire } from '../support/fault-suite.js';
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

/** The stateless headers of each request (absent ones left out). */
function statelessHeaders(): Record<string, string>[] {
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

describe('a connection pinned to 2026-07-28, against a dual-revision v2 server', () => {
  it('mounts with one POST and calls with one POST, each with the stateless headers and envelope', async () => {
    const tools = await mountConnections([connection('/dual', '2026-07-28')]);
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'chatty',
      'confirm',
      'echo',
      'fail',
      'route',
      'slow',
    ]);
    expect(lines()).toEqual(['POST /dual tools/list 200']);
    v2.resetLog();
    expect(await runTool(echo(tools), { message: 'hi' }, { source: 'agent' })).toEqual(ECHOED);
    expect(lines()).toEqual(['POST /dual tools/call 200']);
    expect(statelessHeaders()).toEqual([
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
          // A call may become a task: the extension is declared, and the server decides.
          'io.modelcontextprotocol/clientCapabilities': {
            extensions: { 'io.modelcontextprotocol/tasks': {} },
          },
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

describe('an auto connection, which tries the stateless wire first', () => {
  it.each(['/dual', '/stateless-only'] as const)(
    'against the v2 server at %s: mounts with one POST and calls with one POST',
    async (path) => {
      const tools = await mountConnections([connection(path)]);
      expect(lines()).toEqual([`POST ${path} tools/list 200`]);
      v2.resetLog();
      expect(await runTool(echo(tools), { message: 'hi' }, { source: 'agent' })).toEqual(ECHOED);
      expect(lines()).toEqual([`POST ${path} tools/call 200`]);
    },
  );

  it('against a 2025-only v1 server: the probe refused, then the 2025 handshake; calls send no probe', async () => {
    const auto = defineMcpClientConnection({
      name: 'v1',
      transport: { url: v1.url('/sessionless-json') },
    });
    const tools = await mountConnections([auto]);
    const v1Lines = () =>
      v1.log.map((entry) => `${entry.method} ${entry.rpcMethods.join(',')} ${entry.status}`);
    expect(v1Lines()).toEqual([
      'POST tools/list 400',
      'POST initialize 200',
      'POST notifications/initialized 202',
      'POST tools/list 200',
    ]);
    v1.resetLog();
    const result = await runTool(echo(tools), { message: 'hi' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: true });
    expect(v1Lines()).toEqual([
      'POST initialize 200',
      'POST notifications/initialized 202',
      'POST tools/call 200',
    ]);
  });

  it('pinned to 2025-11-25 against a stateless-only server, fails with the versions both sides speak and never tries legacy SSE', async () => {
    const error = await rejectionOf(
      mountConnections([connection('/stateless-only', '2025-11-25')]),
    );
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({
      operation: 'initialize',
      rpcCode: -32022,
      message:
        'Connection "v2" supports none of the MCP protocol versions this client speaks (server: 2026-07-28; client: 2025-11-25)',
    });
    expect(lines()).toEqual(['POST /stateless-only initialize 400']);
  });
});

describe('a call whose server changed revision since discovery (the revision it carries is wrong)', () => {
  const faults = useFaultServers();

  /** Refuses the 2025 handshake with -32022 naming 2026-07-28, as an upgraded server does. */
  const refuseHandshake = (request: SeenRequest) =>
    reply.json(
      400,
      mcpMessage.error(request.rpc?.id ?? null, -32022, 'Unsupported protocol version', {
        supported: ['2026-07-28'],
        requested: '2025-11-25',
      }),
    );

  async function mountMoving(server: FaultServer): Promise<AnyRuntimeToolDefinition> {
    const [tool] = await mountConnections([
      defineMcpClientConnection({ name: 'moving', transport: { url: server.url } }),
    ]);
    if (tool === undefined) throw new Error('echo not mounted');
    return tool;
  }

  const call = (tool: AnyRuntimeToolDefinition, message: string) =>
    runTool(tool, { message }, { source: 'agent' });

  it('moves a 2025 revision to the stateless wire once, and the next call sends one POST', async () => {
    const server = await faults.start(mcpHandler());
    const tool = await mountMoving(server);
    server.setHandler(mcpHandler({ initialize: refuseHandshake }, { stateless: true }));
    const from = server.count();
    expect(await call(tool, 'a')).toMatchObject({ ok: true });
    expect(await call(tool, 'b')).toMatchObject({ ok: true });
    expect(wire(server, from)).toEqual([
      'POST /mcp initialize',
      'POST /mcp tools/call',
      'POST /mcp tools/call',
    ]);
    expect(server.requests.slice(from).map((request) => request.headers['mcp-method'])).toEqual([
      undefined,
      'tools/call',
      'tools/call',
    ]);
  });

  it('moves a stateless revision to the 2025 wire once, and the next call starts with the handshake', async () => {
    const server = await faults.start(mcpHandler({}, { stateless: true }));
    const tool = await mountMoving(server);
    expect(wire(server)).toEqual(['POST /mcp tools/list']);
    server.setHandler(mcpHandler());
    const from = server.count();
    expect(await call(tool, 'a')).toMatchObject({ ok: true });
    expect(await call(tool, 'b')).toMatchObject({ ok: true });
    expect(wire(server, from)).toEqual([
      'POST /mcp tools/call',
      'POST /mcp initialize',
      'POST /mcp notifications/initialized',
      'POST /mcp tools/call',
      'POST /mcp initialize',
      'POST /mcp notifications/initialized',
      'POST /mcp tools/call',
    ]);
  });

  it('never loops: a server that refuses both revisions ends the call with its last refusal', async () => {
    const server = await faults.start(mcpHandler());
    const tool = await mountMoving(server);
    // Refuses the handshake with -32022, and the stateless request as a 2025 server does.
    server.setHandler(mcpHandler({ initialize: refuseHandshake }));
    const from = server.count();
    const result = await call(tool, 'a');
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_PROTOCOL_ERROR' });
    expect(toolCauseFromResult(result)).toMatchObject({ operation: 'tools/call', rpcCode: -32000 });
    expect(wire(server, from)).toEqual(['POST /mcp initialize', 'POST /mcp tools/call']);
  });
});

describe('a connection pinned to 2026-07-28, against a 2025-only v1 server', () => {
  it("fails discovery with the server's own JSON-RPC refusal, code and message", async () => {
    const pinned = defineMcpClientConnection({
      name: 'v1',
      transport: { url: v1.url('/sessionless-json'), protocolVersion: '2026-07-28' },
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

describe('progress and cancellation on the stateless wire', () => {
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

describe('log messages on the stateless wire', () => {
  const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

  async function chattyTool(): Promise<AnyRuntimeToolDefinition> {
    const tools = await mountConnections([connection('/dual', '2026-07-28')]);
    const tool = tools.find((candidate) => candidate.name === 'chatty');
    if (tool === undefined) throw new Error('chatty not mounted');
    v2.resetLog();
    return tool;
  }

  it('asks for every level when the caller takes logs, and relays each line as written', async () => {
    const tool = await chattyTool();
    const logged: unknown[] = [];
    const result = await runTool(
      tool,
      {},
      {
        source: 'agent',
        caller: { capabilities: {}, log: (message) => void logged.push(message) },
      },
    );
    expect(result).toMatchObject({ ok: true, data: { content: [{ type: 'text', text: 'done' }] } });
    expect(logged).toEqual([
      { level: 'debug', data: 'looking' },
      { level: 'info', data: { found: 2 }, logger: 'search' },
    ]);
    expect(lines()).toEqual(['POST /dual tools/call 200']);
    const [call] = v2.log.map((entry) => entry.body as { params: { _meta: object } });
    expect(call?.params._meta).toMatchObject({ [LOG_LEVEL]: 'debug' });
  });

  it('asks for none when nobody reads them, so the server sends none', async () => {
    const tool = await chattyTool();
    const result = await runTool(tool, {}, { source: 'agent' });
    expect(result).toMatchObject({ ok: true, data: { content: [{ type: 'text', text: 'done' }] } });
    const [call] = v2.log.map((entry) => entry.body as { params: { _meta: object } });
    expect(call?.params._meta).not.toHaveProperty(LOG_LEVEL);
    expect(lines()).toEqual(['POST /dual tools/call 200']);
  });
});

describe('input_required on the stateless wire', () => {
  async function confirmTool(): Promise<AnyRuntimeToolDefinition> {
    const tools = await mountConnections([connection('/dual', '2026-07-28')]);
    const tool = tools.find((candidate) => candidate.name === 'confirm');
    if (tool === undefined) throw new Error('confirm not mounted');
    v2.resetLog();
    return tool;
  }

  it("asks the caller, then sends the call again with the answers and the server's state", async () => {
    const tool = await confirmTool();
    const asked: unknown[] = [];
    const result = await runTool(
      tool,
      { env: 'prod' },
      {
        source: 'agent',
        caller: {
          capabilities: { elicitation: {} },
          request: async (request) => {
            asked.push(request);
            return { result: { action: 'accept', content: { confirm: true } } };
          },
        },
      },
    );
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'deployed to prod' }] },
    });
    expect(asked).toEqual([
      {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Deploy to prod?' }),
      },
    ]);
    expect(lines()).toEqual(['POST /dual tools/call 200', 'POST /dual tools/call 200']);
    const [first, retry] = v2.log.map((entry) => entry.body as { id: number; params: object });
    expect(first?.params).not.toHaveProperty('inputResponses');
    expect(retry?.id).toBe((first?.id ?? 0) + 1);
    expect(retry?.params).toMatchObject({
      name: 'confirm',
      arguments: { env: 'prod' },
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: 'asked:prod',
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
    });
  });

  it('fails typed, with the server refusal, for a caller that cannot answer an elicitation', async () => {
    const tool = await confirmTool();
    const result = await runTool(tool, { env: 'prod' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_PROTOCOL_ERROR' });
    expect(toolCauseFromResult(result)).toMatchObject({
      operation: 'tools/call',
      rpcCode: -32021,
      message: 'Connection "v2" needs client capabilities its caller did not declare (elicitation)',
    });
    expect(lines()).toEqual(['POST /dual tools/call 400']);
  });
});

describe('the caching hints of a stateless listing', () => {
  it('are kept on the catalog, per connection', async () => {
    const tools = await mountConnections([connection('/dual', '2026-07-28')]);
    expect(describeCatalog(tools).connections).toEqual([
      {
        connection: 'v2',
        tools: 6,
        schemaBytes: describeCatalog(tools).totals.schemaBytes,
        skipped: 0,
        cache: { ttlMs: 0, cacheScope: 'private' },
      },
    ]);
  });
});
