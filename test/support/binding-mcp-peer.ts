/**
 * A stateful Streamable HTTP MCP server on 127.0.0.1 (OS-assigned port) whose McpServer instances
 * are prepared by the test, plus a connected SDK client. Stateful, so that a client's
 * `notifications/cancelled` reaches the same server instance as the request it cancels.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { startStatefulHost } from '../../conformance/stateful-http.js';

/** A running peer and a client connected to it. */
export interface McpPeer {
  /** The SDK client, connected. */
  client: Client;
  /** The peer's Streamable HTTP URL. */
  url: string;
  /** Closes the client, every server session and the HTTP server. */
  stop(): Promise<void>;
}

/** Starts the peer; `prepare` registers tools on each new session's McpServer. */
export async function startMcpPeer(prepare: (server: McpServer) => void): Promise<McpPeer> {
  const host = await startStatefulHost(() => {
    const server = new McpServer({ name: 'binding-peer', version: '1.0.0' });
    prepare(server);
    return server;
  });
  const client = new Client({ name: 'binding-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(host.url)));
  return {
    client,
    url: host.url,
    async stop() {
      await client.close();
      await host.close();
    },
  };
}
