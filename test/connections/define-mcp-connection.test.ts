/**
 * `defineMcpClientConnection`: what it refuses at definition time, that it performs no I/O, and how
 * per-phase limits inherit the shared ones field by field, observed through real operations.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import {
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  defineMcpClientConnection,
  type McpClientConnectionConfig,
  mountConnections,
} from '../../src/connections/index.js';
import {
  type FaultServer,
  mcp,
  mcpHandler,
  reply,
  type SeenRequest,
  startFaultServer,
} from '../fixtures/fault-server.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

const URL_OK = 'http://127.0.0.1:9/mcp';

function config(extra: Record<string, unknown> = {}): McpClientConnectionConfig {
  return { name: 'defined', transport: { url: URL_OK }, ...extra } as McpClientConnectionConfig;
}

type ErrorClass = new (...args: never[]) => Error;

const INVALID_NUMBERS: readonly [string, number][] = [
  ['0', 0],
  ['-1', -1],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['1.5', 1.5],
  ['MAX_SAFE_INTEGER + 1', Number.MAX_SAFE_INTEGER + 1],
];

function limitRefusals(): [string, McpClientConnectionConfig, ErrorClass, RegExp][] {
  const rows: [string, McpClientConnectionConfig, ErrorClass, RegExp][] = [];
  for (const field of ['timeoutMs', 'maxResponseBytes'] as const) {
    for (const [label, value] of INVALID_NUMBERS) {
      rows.push([
        `${field} ${label}`,
        config({ [field]: value }),
        RangeError,
        new RegExp(`^${field} must`),
      ]);
      for (const phase of ['discovery', 'call'] as const) {
        rows.push([
          `limits.${phase}.${field} ${label}`,
          config({ limits: { [phase]: { [field]: value } } }),
          RangeError,
          new RegExp(`^limits\\.${phase}\\.${field} must`),
        ]);
      }
    }
  }
  rows.push([
    'timeoutMs 2_147_483_648',
    config({ timeoutMs: 2_147_483_648 }),
    RangeError,
    /^timeoutMs must.*2147483647/,
  ]);
  rows.push([
    'limits.discovery.timeoutMs 2_147_483_648',
    config({ limits: { discovery: { timeoutMs: 2_147_483_648 } } }),
    RangeError,
    /^limits\.discovery\.timeoutMs must/,
  ]);
  rows.push([
    'limits.call.timeoutMs 2_147_483_648',
    config({ limits: { call: { timeoutMs: 2_147_483_648 } } }),
    RangeError,
    /^limits\.call\.timeoutMs must/,
  ]);
  return rows;
}

const REFUSALS: [string, McpClientConnectionConfig, ErrorClass, RegExp][] = [
  ['an empty name', config({ name: '' }), TypeError, /^MCP connection requires a non-empty name$/],
  [
    'a blank name',
    config({ name: '   ' }),
    TypeError,
    /^MCP connection requires a non-empty name$/,
  ],
  ['a missing URL', config({ transport: {} }), TypeError, /transport\.url must be a string/],
  [
    'tasks.optional other than plain or task',
    config({ tasks: { optional: 'always' as never } }),
    TypeError,
    /tasks\.optional must be 'plain' or 'task'/,
  ],
  ['tasks not an object', config({ tasks: 'task' as never }), TypeError, /tasks must be an object/],
  [
    'a task deadline of 0',
    config({ limits: { task: { timeoutMs: 0 } } }),
    RangeError,
    /limits\.task\.timeoutMs/,
  ],
  [
    'an ftp:// URL',
    config({ transport: { url: 'ftp://127.0.0.1/mcp' } }),
    ConnectionUrlError,
    /^Connection "defined" must use http\(s\), got "ftp:"$/,
  ],
  [
    'a file:// URL',
    config({ transport: { url: 'file:///etc/hosts' } }),
    ConnectionUrlError,
    /must use http\(s\), got "file:"/,
  ],
  [
    'an unparseable URL',
    config({ transport: { url: 'not a url?token=tok-SECRET-url' } }),
    ConnectionUrlError,
    /^Connection "defined" has an unparseable URL$/,
  ],
  [
    'a URL with userinfo',
    config({ transport: { url: 'http://user:tok-SECRET-pw@127.0.0.1/mcp' } }),
    ConnectionUrlError,
    /^Connection "defined" URL must not carry userinfo; use a token provider$/,
  ],
  [
    'a header name with a space',
    config({ transport: { url: URL_OK, headers: { 'x api key': 'v' } } }),
    TypeError,
    /transport\.headers\["x api key"\] must be a valid header name with a string value/,
  ],
  [
    'an empty header name',
    config({ transport: { url: URL_OK, headers: { '': 'v' } } }),
    TypeError,
    /transport\.headers\[""\] must be a valid header name/,
  ],
  [
    'a non-string header value',
    config({ transport: { url: URL_OK, headers: { 'x-api-key': 42 } } }),
    TypeError,
    /transport\.headers\["x-api-key"\] must be a valid header name with a string value/,
  ],
  [
    'headers that are not a record',
    config({ transport: { url: URL_OK, headers: ['x-api-key'] } }),
    TypeError,
    /transport\.headers must be a record of strings/,
  ],
  [
    'an allowHosts entry with a scheme',
    config({ allowHosts: ['https://other.example'] }),
    ConnectionUrlError,
    /^Connection "defined" allowHosts entry "https:\/\/other\.example" must be a bare host\[:port\]$/,
  ],
  [
    'an allowHosts entry with a path',
    config({ allowHosts: ['other.example/api'] }),
    ConnectionUrlError,
    /allowHosts entry "other\.example\/api" must be a bare host/,
  ],
  [
    'an empty allowHosts entry',
    config({ allowHosts: [''] }),
    ConnectionUrlError,
    /allowHosts entry "" must be a bare host/,
  ],
  [
    'transports: []',
    config({ transports: [] }),
    TypeError,
    /transports must list at least one transport/,
  ],
  [
    'an unknown transport',
    config({ transports: ['MCP', 'HTTP'] }),
    TypeError,
    /transports may only name MCP, AGENT or CLI/,
  ],
  [
    'an unknown transport type',
    config({ transport: { url: 'http://127.0.0.1:1/mcp', type: 'websocket' } }),
    TypeError,
    /^MCP connection "defined": transport\.type must be 'streamable-http' or 'sse' \(or absent to probe\)$/,
  ],
  [
    'a token that is not a function',
    config({ token: 'tok-SECRET-static' }),
    TypeError,
    /token must be a function/,
  ],
  [
    'a tools.allow that is not a list of names',
    config({ tools: { allow: 'echo' } }),
    TypeError,
    /tools\.allow must be an array of tool names/,
  ],
  ...limitRefusals(),
];

describe('defineMcpClientConnection refuses at definition', () => {
  it.each(REFUSALS)('%s', (_label, bad, errorClass, message) => {
    let caught: unknown;
    try {
      defineMcpClientConnection(bad);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(errorClass);
    expect((caught as Error).message).toMatch(message);
    // Neither a URL's query nor its userinfo, nor a token, is echoed in the refusal.
    expect(
      JSON.stringify({ ...(caught as object), message: (caught as Error).message }),
    ).not.toContain('tok-SECRET');
  });

  it('accepts the largest timer delay and the largest safe byte ceiling', () => {
    const connection = defineMcpClientConnection(
      config({
        timeoutMs: 2_147_483_647,
        maxResponseBytes: Number.MAX_SAFE_INTEGER,
        limits: { discovery: { timeoutMs: 1 }, call: { maxResponseBytes: 1 } },
      }),
    );
    expect(connection.kind).toBe('mcp');
    expect(Object.isFrozen(connection)).toBe(true);
  });
});

describe('a defined connection at work', () => {
  let server: FaultServer;
  let baseline: ReturnType<typeof activeResourceCounts>;
  const unhandled = trackUnhandledRejections();

  beforeAll(async () => {
    baseline = activeResourceCounts();
    server = await startFaultServer(mcpHandler());
  });
  beforeEach(() => {
    server.setHandler(mcpHandler());
  });
  afterAll(async () => {
    await server.close();
    await expectNoLeakedResources(baseline);
    expect(unhandled).toEqual([]);
  });

  const methods = (requests: readonly SeenRequest[]) =>
    requests.map((request) => `${request.method} ${request.rpc?.method ?? ''}`.trim());

  function echoOf(tools: readonly AnyRuntimeToolDefinition[]): AnyRuntimeToolDefinition {
    const echo = tools.find((tool) => tool.name === 'echo');
    if (echo === undefined) throw new Error('echo not mounted');
    return echo;
  }

  it('performs no network I/O until it is mounted', async () => {
    const before = server.count();
    let tokenCalls = 0;
    const connection = defineMcpClientConnection({
      name: 'quiet',
      transport: { url: server.url, headers: { 'x-api-key': 'KEY' } },
      token: () => {
        tokenCalls += 1;
        return 'tok';
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.count()).toBe(before);
    expect(tokenCalls).toBe(0);
    await mountConnections([connection]);
    // The stateless probe first, refused as a 2025 server refuses it, then the 2025 handshake.
    expect(methods(server.requests.slice(before))).toEqual([
      'POST tools/list',
      'POST initialize',
      'POST notifications/initialized',
      'POST tools/list',
    ]);
    expect(tokenCalls).toBe(1);
  });

  it('applies limits.call.maxResponseBytes to tools/call only, inheriting the shared 1 MiB for discovery', async () => {
    const tools = Array.from({ length: 20 }, (_, index) => ({
      name: index === 0 ? 'echo' : `tool_${index}`,
      description: `A tool with a long enough description to make the catalog large: ${index}`,
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    }));
    server.setHandler(
      mcpHandler(
        {
          'tools/call': (request) =>
            mcp.callResult(request.rpc?.id ?? null, {
              content: [{ type: 'text', text: 'x'.repeat(2_000) }],
            }),
        },
        { tools },
      ),
    );
    const connection = defineMcpClientConnection({
      name: 'phase-bytes',
      transport: { url: server.url },
      limits: { call: { maxResponseBytes: 1_000 } },
    });
    const before = server.count();
    const mounted = await mountConnections([connection]);
    // The catalog alone is larger than the call's ceiling, so discovery kept the shared 1 MiB.
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeGreaterThan(1_000);
    expect(mounted).toHaveLength(20);
    const result = await runTool(echoOf(mounted), { message: 'hi' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(cause).toMatchObject({
      connectionName: 'phase-bytes',
      maxBytes: 1_000,
      operation: 'tools/call',
      phase: 'call',
    });
    expect((cause as ConnectionResponseTooLargeError).observedReadBytes).toBeGreaterThan(1_000);
    expect(result).toMatchObject({
      ok: false,
      code: 'CONNECTION_RESPONSE_TOO_LARGE',
      details: { operation: 'tools/call', phase: 'call', maxResponseBytes: 1_000 },
    });
    expect(methods(server.requests.slice(before))).toEqual([
      'POST tools/list',
      'POST initialize',
      'POST notifications/initialized',
      'POST tools/list',
      'POST initialize',
      'POST notifications/initialized',
      'POST tools/call',
    ]);
  });

  it('inherits the shared timeoutMs for a call whose only override is its byte ceiling', async () => {
    server.setHandler(mcpHandler({ 'tools/call': reply.hang() }));
    const connection = defineMcpClientConnection({
      name: 'phase-inherit',
      transport: { url: server.url },
      timeoutMs: 1_000,
      limits: { call: { maxResponseBytes: 4_096 } },
    });
    const mounted = await mountConnections([connection]);
    const result = await runTool(echoOf(mounted), { message: 'hi' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionTimeoutError);
    expect(cause).toMatchObject({ timeoutMs: 1_000, operation: 'tools/call', phase: 'call' });
  });

  it('runs the initialize of a call under discovery limits, however large the call deadline', async () => {
    const connection = defineMcpClientConnection({
      name: 'phase-handshake',
      transport: { url: server.url },
      limits: { discovery: { timeoutMs: 1_000 }, call: { timeoutMs: 60_000 } },
    });
    const mounted = await mountConnections([connection]);
    server.setHandler(mcpHandler({ initialize: reply.hang() }));
    const before = server.count();
    const result = await runTool(echoOf(mounted), { message: 'hi' }, { source: 'agent' });
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(ConnectionTimeoutError);
    expect(cause).toMatchObject({
      connectionName: 'phase-handshake',
      timeoutMs: 1_000,
      operation: 'initialize',
      phase: 'discovery',
      observedReadBytes: 0,
    });
    expect(result).toMatchObject({
      ok: false,
      code: 'CONNECTION_TIMEOUT',
      details: { operation: 'initialize', phase: 'discovery', timeoutMs: 1_000 },
    });
    expect(methods(server.requests.slice(before))).toEqual(['POST initialize']);
  });
});
