/**
 * A gateway as a stitchkit application builds one: the upstream's tools mounted with
 * `mountConnections`, re-exposed with `mountMcp` on a stateful Streamable HTTP MCP server that
 * declares logging (so upstream log messages can be relayed). Run it in front of any server:
 * `node --import tsx conformance/gateway.ts <upstream-url> [port]`.
 */
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { mountMcp } from '../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../src/connections/index.js';
import { type StatefulHost, startStatefulHost } from './stateful-http.js';

/** Mounts `upstreamUrl`'s tools and serves them on `port` (0: the OS picks). */
export async function startGateway(upstreamUrl: string, port = 0): Promise<StatefulHost> {
  const tools = await mountConnections([
    defineMcpClientConnection({
      name: 'upstream',
      transport: { url: upstreamUrl },
      timeoutMs: 30_000,
    }),
  ]);
  return startStatefulHost(() => {
    const server = new McpServer(
      { name: 'stitchkit-gateway', version: '1.0.0' },
      { capabilities: { logging: {} } },
    );
    mountMcp(server, tools);
    return server;
  }, port);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const upstream = process.argv[2];
  if (upstream === undefined) throw new Error('usage: gateway.ts <upstream-url> [port]');
  const host = await startGateway(upstream, Number(process.argv[3] ?? 0));
  console.log(host.url);
}
