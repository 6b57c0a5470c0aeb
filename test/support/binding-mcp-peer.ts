/**
 * A stateful Streamable HTTP MCP server on 127.0.0.1 (OS-assigned port) whose McpServer instances
 * are prepared by the test, plus a connected SDK client. Stateful, so that a client's
 * `notifications/cancelled` reaches the same server instance as the request it cancels.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

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
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const http: Server = createServer((req, res) => {
    void (async () => {
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        if (req.method !== 'POST' || sessionId !== undefined) {
          res.writeHead(sessionId === undefined ? 400 : 404).end();
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
        });
        const server = new McpServer({ name: 'binding-peer', version: '1.0.0' });
        prepare(server);
        servers.push(server);
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  const client = new Client({ name: 'binding-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));

  return {
    client,
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      await client.close();
      for (const server of servers) await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        http.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
