/**
 * Shared setup for the fault-scenario suites: fault servers that are closed after every test, a
 * leak check (sockets, timers, unhandled rejections) after the whole file, and the helpers every
 * suite uses to connect to a server and read what reached it.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { AnyRuntimeToolDefinition } from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  type McpClientConnectionConfig,
  mountConnections,
} from '../../src/connections/index.js';
import { type FaultHandler, type FaultServer, startFaultServer } from '../fixtures/fault-server.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from './leaks.js';

/** Starts fault servers that the suite closes after each test. */
export interface FaultServers {
  /** Starts a fault server with `handler`; it is closed after the current test. */
  start(handler: FaultHandler): Promise<FaultServer>;
}

/**
 * Registers the suite's hooks and returns its server starter. Call it once, at the top level of a
 * test file: it takes the leak baseline before the first test, closes every server started by a
 * test after that test, and after the last test expects no leaked socket or timer and no
 * unhandled rejection.
 */
export function useFaultServers(): FaultServers {
  const started: FaultServer[] = [];
  let baseline: ReturnType<typeof activeResourceCounts>;
  const unhandled = trackUnhandledRejections();

  beforeAll(() => {
    baseline = activeResourceCounts();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await expectNoLeakedResources(baseline);
    expect(unhandled).toEqual([]);
  });

  return {
    async start(handler: FaultHandler): Promise<FaultServer> {
      const server = await startFaultServer(handler);
      started.push(server);
      return server;
    },
  };
}

/**
 * Defines the MCP client connection `faulty` to `server`, with `extra` config on top. The fault
 * suites exercise the 2025-11-25 wire, so the connection speaks it (no stateless probe first) unless
 * `extra.transport` says otherwise; the probe's own faults are `mcp-faults-probe.test.ts`.
 */
export function connect(server: FaultServer, extra: Partial<McpClientConnectionConfig> = {}) {
  const { transport, ...rest } = extra;
  return defineMcpClientConnection({
    name: 'faulty',
    ...rest,
    transport: { url: server.url, protocolVersion: '2025-11-25', ...transport },
  });
}

/** What reached the server, one line per request: HTTP method, path and JSON-RPC method. */
export function wire(server: FaultServer, from = 0): string[] {
  return server.requests
    .slice(from)
    .map((request) =>
      [request.method, request.path, request.rpc?.method].filter(Boolean).join(' '),
    );
}

/** The reason `promise` rejects with; fails if it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the operation to fail');
    },
    (error: unknown) => error,
  );
}

/** Mounts {@link connect}'s connection to `server`, expects exactly the `echo` tool, returns it. */
export async function mountEcho(
  server: FaultServer,
  extra: Partial<McpClientConnectionConfig> = {},
): Promise<AnyRuntimeToolDefinition> {
  const tools = await mountConnections([connect(server, extra)]);
  expect(tools.map((tool) => tool.name)).toEqual(['echo']);
  return tools[0] as AnyRuntimeToolDefinition;
}

/** The Streamable HTTP handshake as the server sees it, before an operation's own request. */
export const HANDSHAKE = ['POST /mcp initialize', 'POST /mcp notifications/initialized'];
