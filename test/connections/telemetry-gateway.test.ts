/**
 * One trace from the downstream client, through the gateway (`mountMcp` on a v1 and on a v2
 * `McpServer`), to the upstream: the downstream's `_meta.traceparent` is the parent of the
 * gateway's `mcp.client` span, and the upstream receives that span's context in its `_meta`. The
 * downstream is the MCP SDK's own client on each line (a 2025 session, and 2026-07-28 per
 * request); the upstream is a fault server that records every request.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountConnections } from '../../src/connections/index.js';
import { type FaultServer, mcpHandler, startFaultServer } from '../fixtures/fault-server.js';
import {
  type LoggedServer,
  startV1Gateway,
  startV2Gateway,
} from '../fixtures/revision-gateways.js';
import { connect } from '../support/fault-suite.js';
import { sentMeta, useOtel } from '../support/otel.js';

const otel = useOtel();
let upstream: FaultServer;
const gateways = new Map<'v1' | 'v2', LoggedServer>();

beforeAll(async () => {
  upstream = await startFaultServer(mcpHandler());
  const tools = await mountConnections([connect(upstream)]);
  gateways.set('v1', await startV1Gateway(tools));
  gateways.set('v2', await startV2Gateway(tools));
});
afterAll(async () => {
  for (const gateway of gateways.values()) await gateway.close();
  await upstream.close();
});

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const DOWNSTREAM_SPAN = 'b7ad6b7169203331';
const INFO = { name: 'downstream', version: '1.0.0' };
const meta = { traceparent: `00-${TRACE_ID}-${DOWNSTREAM_SPAN}-01`, tracestate: 'down=1' };

async function callThrough(line: 'v1' | 'v2'): Promise<void> {
  const url = new URL(gateways.get(line)?.url ?? '');
  if (line === 'v1') {
    const client = new V1Client(INFO);
    const transport = new V1Transport(url);
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { message: 'x' }, _meta: meta });
    await transport.terminateSession();
    await client.close();
    return;
  }
  const client = new V2Client(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new V2Transport(url));
  await client.callTool({ name: 'echo', arguments: { message: 'x' }, _meta: meta });
  await client.close();
}

describe('a call through the gateway', () => {
  it.each(['v1', 'v2'] as const)('stays in the downstream trace (%s gateway)', async (line) => {
    const from = upstream.requests.length;
    await callThrough(line);
    const calls = otel.spans().filter((span) => span.name === 'tools/call echo');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.traceId).toBe(TRACE_ID);
    expect(call?.parentSpanId).toBe(DOWNSTREAM_SPAN);
    const received = upstream.requests
      .slice(from)
      .filter((request) => request.rpc?.method === 'tools/call')
      .map((request) => sentMeta(request));
    expect(received).toEqual([
      { traceparent: `00-${TRACE_ID}-${call?.spanId}-01`, tracestate: 'down=1' },
    ]);
  });
});
