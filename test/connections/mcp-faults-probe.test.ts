/**
 * Fault scenarios of the stateless probe: an `auto` connection's discovery sends MCP 2026-07-28
 * first. Only a 400, 404 or 405 without a 2026-07-28 JSON-RPC error reads as "a 2025 server" and leads
 * to the 2025 handshake; every other failure of the probe ends discovery typed, as the same
 * failure of the 2025 `initialize` does, and never reaches legacy SSE.
 */
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import {
  type CatalogChange,
  ConnectionAuthorizationRequiredError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  defineMcpClientConnection,
  mountConnections,
  watchConnections,
} from '../../src/connections/index.js';
import type {
  FaultHandler,
  FaultReply,
  FaultServer,
  SeenRequest,
} from '../fixtures/fault-server.js';
import { mcp, mcpHandler, mcpMessage, reply } from '../fixtures/fault-server.js';
import { rejectionOf, useFaultServers, wire } from '../support/fault-suite.js';
import { until } from '../support/until.js';

const { start } = useFaultServers();

/** An `auto` connection to `server` (the fault suites' `connect` pins 2025-11-25). */
function probing(
  server: FaultServer,
  extra: { timeoutMs?: number; maxResponseBytes?: number } = {},
) {
  return defineMcpClientConnection({ name: 'probing', transport: { url: server.url }, ...extra });
}

/** A 2025 server whose stateless requests get `answer` instead of the 2025 SDK's refusal. */
function answeringTheProbe(answer: FaultReply | FaultHandler): FaultHandler {
  const server2025 = mcpHandler();
  return (request, server) => {
    if (request.headers['mcp-protocol-version'] !== '2026-07-28') {
      return server2025(request, server);
    }
    return typeof answer === 'function' ? answer(request, server) : answer;
  };
}

describe('the stateless probe of an auto connection', () => {
  it('times out typed at tools/list when the server never answers, and sends nothing else', async () => {
    const server = await start(answeringTheProbe(reply.hang()));
    const error = await rejectionOf(mountConnections([probing(server, { timeoutMs: 300 })]));
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({ operation: 'tools/list', phase: 'discovery', timeoutMs: 300 });
    expect(wire(server)).toEqual(['POST /mcp tools/list']);
    await expect.poll(() => server.closedRequests()).toBe(1);
  });

  it.each([
    [401, ConnectionAuthorizationRequiredError],
    [403, ConnectionRequestError],
    [500, ConnectionRequestError],
  ] as const)(
    'ends discovery typed on a %i, with no handshake and no SSE',
    async (status, type) => {
      const server = await start(answeringTheProbe(reply.status(status, 'no')));
      const error = await rejectionOf(mountConnections([probing(server)]));
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ operation: 'tools/list', phase: 'discovery' });
      expect(wire(server)).toEqual(['POST /mcp tools/list']);
    },
  );

  it.each([400, 404, 405])(
    'reads a plain %i as a 2025 server: the handshake follows, and discovery succeeds',
    async (status) => {
      const server = await start(answeringTheProbe(reply.status(status, 'no')));
      const tools = await mountConnections([probing(server)]);
      expect(tools.map((tool) => tool.name)).toEqual(['echo']);
      expect(wire(server)).toEqual([
        'POST /mcp tools/list',
        'POST /mcp initialize',
        'POST /mcp notifications/initialized',
        'POST /mcp tools/list',
      ]);
    },
  );

  it('reads a listing without resultType as a 2025 server that ignored the envelope, and lists again in 2025', async () => {
    const server = await start(
      answeringTheProbe((request: SeenRequest) => mcp.toolsList(request.rpc?.id ?? null)),
    );
    const tools = await mountConnections([probing(server)]);
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(wire(server)).toEqual([
      'POST /mcp tools/list',
      'POST /mcp initialize',
      'POST /mcp notifications/initialized',
      'POST /mcp tools/list',
    ]);
  });

  it.each([
    [-32020, 'answered HTTP 400 with MCP error (code -32020)'],
    [-32021, 'needs client capabilities its caller did not declare (none named)'],
  ])(
    'takes a 400 carrying the stateless error %i as a stateless refusal: typed, no handshake',
    async (code, violation) => {
      const server = await start(
        answeringTheProbe((request: SeenRequest) =>
          reply.json(400, mcpMessage.error(request.rpc?.id ?? null, code, 'refused')),
        ),
      );
      const error = await rejectionOf(mountConnections([probing(server)]));
      expect(error).toBeInstanceOf(ConnectionProtocolError);
      expect(error).toMatchObject({
        rpcCode: code,
        rpcMessage: 'refused',
        message: `Connection "probing" ${violation}`,
      });
      expect(wire(server)).toEqual(['POST /mcp tools/list']);
    },
  );

  it('refuses an oversized 400 body as too large instead of reading it as a 2025 server', async () => {
    const server = await start(answeringTheProbe(reply.status(400, 'x'.repeat(4_096))));
    const error = await rejectionOf(mountConnections([probing(server, { maxResponseBytes: 256 })]));
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({ operation: 'tools/list', maxBytes: 256 });
    expect(wire(server)).toEqual(['POST /mcp tools/list']);
  });

  it('refuses a redirect of the probe, with no request to its target', async () => {
    const server = await start(answeringTheProbe(reply.redirect(307, '/elsewhere')));
    const error = await rejectionOf(mountConnections([probing(server)]));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({ operation: 'tools/list' });
    expect(wire(server)).toEqual(['POST /mcp tools/list']);
  });
});

describe('x-mcp-header on the stateless wire', () => {
  const TOOLS = [
    {
      name: 'echo',
      description: 'Echoes, with its routing arguments mirrored into headers.',
      inputSchema: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          region: { type: 'string', 'x-mcp-header': 'Region' },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
        },
      },
    },
    {
      name: 'badly_annotated',
      description: 'Annotates a number, which no header may carry.',
      inputSchema: {
        type: 'object',
        properties: { ratio: { type: 'number', 'x-mcp-header': 'Ratio' } },
      },
    },
  ];

  it('skips a tool whose annotations are invalid, and sends Mcp-Param-* for the rest', async () => {
    const server = await start(mcpHandler({}, { stateless: true, tools: TOOLS }));
    const skipped: unknown[] = [];
    const tools = await mountConnections([probing(server)], {
      onSkippedTool: (entry) => skipped.push(entry),
    });
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(skipped).toEqual([
      {
        connection: 'probing',
        tool: 'badly_annotated',
        reason: 'invalid-header-annotation',
        message: 'x-mcp-header of "ratio" is on a number property',
      },
    ]);
    const from = server.count();
    const echo = tools[0];
    if (echo === undefined) throw new Error('echo not mounted');
    await runTool(echo, { message: 'hi', region: 'eu-west', count: 3 }, { source: 'agent' });
    await runTool(echo, { message: 'hi', region: 'café' }, { source: 'agent' });
    const params = server.requests
      .slice(from)
      .map((request) =>
        Object.fromEntries(
          Object.entries(request.headers).filter(([name]) => name.startsWith('mcp-param-')),
        ),
      );
    expect(params).toEqual([
      { 'mcp-param-region': 'eu-west', 'mcp-param-count': '3' },
      { 'mcp-param-region': `=?base64?${Buffer.from('café').toString('base64')}?=` },
    ]);
  });
});

describe('a -32020 (the headers and the body disagree) on the stateless wire', () => {
  const plain = {
    name: 'echo',
    description: 'Echoes.',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string' }, region: { type: 'string' } },
    },
  };
  const annotated = {
    ...plain,
    inputSchema: {
      type: 'object',
      properties: {
        message: { type: 'string' },
        region: { type: 'string', 'x-mcp-header': 'Region' },
      },
    },
  };

  /** A 2026-07-28 server that now annotates `region` and refuses a call without its header. */
  const strict = mcpHandler(
    {
      'tools/call': (request: SeenRequest) =>
        request.headers['mcp-param-region'] === undefined
          ? reply.json(
              400,
              mcpMessage.error(request.rpc?.id ?? null, -32020, 'Header mismatch', {
                mismatch: 'Mcp-Param-Region',
              }),
            )
          : reply.json(
              200,
              mcpMessage.callResult(request.rpc?.id ?? null, {
                content: [{ type: 'text', text: 'routed' }],
                resultType: 'complete',
              }),
            ),
    },
    { stateless: true, tools: [annotated] },
  );

  it('lists the tools again once, calls once more with the new headers, and keeps them', async () => {
    const server = await start(mcpHandler({}, { stateless: true, tools: [plain] }));
    const [echo] = await mountConnections([probing(server)]);
    if (echo === undefined) throw new Error('echo not mounted');
    server.setHandler(strict);
    const from = server.count();
    const first = await runTool(echo, { message: 'a', region: 'eu' }, { source: 'agent' });
    const second = await runTool(echo, { message: 'b', region: 'us' }, { source: 'agent' });
    expect([first, second]).toMatchObject([{ ok: true }, { ok: true }]);
    expect(wire(server, from)).toEqual([
      'POST /mcp tools/call',
      'POST /mcp tools/list',
      'POST /mcp tools/call',
      'POST /mcp tools/call',
    ]);
    expect(
      server.requests.slice(from).map((request) => request.headers['mcp-param-region']),
    ).toEqual([undefined, undefined, 'eu', 'us']);
  });

  it('tells a live catalog, which lists the connection again and takes the new schema', async () => {
    const server = await start(mcpHandler({}, { stateless: true, tools: [plain] }));
    const catalog = await watchConnections([probing(server)], { minRefreshIntervalMs: 0 });
    const changes: CatalogChange[] = [];
    catalog.on('change', (change) => changes.push(change));
    const [echo] = catalog.tools();
    if (echo === undefined) throw new Error('echo not mounted');
    server.setHandler(strict);
    const from = server.count();
    const result = await runTool(echo, { message: 'a', region: 'eu' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: true });
    await until('the catalog relisted', () => changes.length === 1);
    expect(changes).toEqual([
      { connection: 'probing', added: [], removed: [], changed: ['echo'], reason: 'unknown-tool' },
    ]);
    expect(catalog.tools()[0]?.inputJsonSchema).toEqual(annotated.inputSchema);
    // The refused call, then its own relisting and retry beside the catalog's relisting (the two
    // listings run at once, in either order).
    const [refused, ...after] = wire(server, from);
    expect(refused).toBe('POST /mcp tools/call');
    expect(after.sort()).toEqual([
      'POST /mcp tools/call',
      'POST /mcp tools/list',
      'POST /mcp tools/list',
    ]);
    await catalog.close();
  });

  it('gives up after the one retry when the server still refuses', async () => {
    const server = await start(mcpHandler({}, { stateless: true, tools: [plain] }));
    const [echo] = await mountConnections([probing(server)]);
    if (echo === undefined) throw new Error('echo not mounted');
    // The listing stays unannotated, so the retry sends no header and is refused again.
    server.setHandler(
      mcpHandler(
        {
          'tools/call': (request: SeenRequest) =>
            reply.json(400, mcpMessage.error(request.rpc?.id ?? null, -32020, 'Header mismatch')),
        },
        { stateless: true, tools: [plain] },
      ),
    );
    const from = server.count();
    const result = await runTool(echo, { message: 'a', region: 'eu' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_PROTOCOL_ERROR' });
    expect(wire(server, from)).toEqual([
      'POST /mcp tools/call',
      'POST /mcp tools/list',
      'POST /mcp tools/call',
    ]);
  });
});

describe('a -32022 naming 2026-07-28 itself', () => {
  it('is retried once, under a new id, and the second answer stands', async () => {
    let refused = false;
    const base = mcpHandler({}, { stateless: true });
    const server = await start((request, fault) => {
      if (!refused && request.rpc?.method === 'tools/list') {
        refused = true;
        return reply.json(
          400,
          mcpMessage.error(request.rpc.id ?? null, -32022, 'Unsupported protocol version', {
            supported: ['2026-07-28'],
          }),
        );
      }
      return base(request, fault);
    });
    const tools = await mountConnections([probing(server)]);
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(wire(server)).toEqual(['POST /mcp tools/list', 'POST /mcp tools/list']);
    const [first, retry] = server.requests.map((request) => request.rpc?.id);
    expect(retry).toBe(Number(first) + 1);
  });
});
