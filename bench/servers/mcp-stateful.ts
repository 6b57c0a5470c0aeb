/**
 * Server child: the MCP SDK `McpServer` over Streamable HTTP at `/stateful`, JSON responses,
 * session ids: one server and transport per session, ended by `DELETE`.
 * `node --import tsx bench/servers/mcp-stateful.ts` (the runner forks it).
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createEchoServer } from './echo-mcp-server.js';
import { rpcError, serveInChild } from './serve.js';

const sessions = new Map<string, StreamableHTTPServerTransport>();

async function openSession(
  req: Parameters<StreamableHTTPServerTransport['handleRequest']>[0],
  res: Parameters<StreamableHTTPServerTransport['handleRequest']>[1],
) {
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
    },
  });
  const server = createEchoServer();
  transport.onclose = () => {
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    void server.close();
  };
  await server.connect(transport);
  await transport.handleRequest(req, res);
  // A POST that was not an initialize made no session: nothing would ever close this transport.
  if (transport.sessionId === undefined) await transport.close();
}

await serveInChild({
  name: 'mcp-stateful',
  handle: async (req, res, path) => {
    if (path !== '/stateful') {
      res.writeHead(404).end();
      return;
    }
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const existing = sessions.get(sessionId);
      if (existing === undefined) rpcError(res, 404, 'Session not found');
      else await existing.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      rpcError(res, 400, 'Bad Request: no session id');
      return;
    }
    await openSession(req, res);
  },
  closeSessions: async () => {
    await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
    sessions.clear();
  },
});
