/**
 * Server child: the legacy HTTP+SSE transport with the MCP SDK's `SSEServerTransport`.
 * `GET /sse` opens the event stream and announces the endpoint (`/messages?sessionId=…`);
 * messages are POSTed there and answered on the stream. A `POST /sse` (what a Streamable-first
 * client sends first) answers 405, so such a client falls back to the legacy transport.
 * `node --import tsx bench/servers/legacy-sse.ts` (the runner forks it).
 */
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createEchoServer } from './echo-mcp-server.js';
import { rpcError, serveInChild } from './serve.js';

const sessions = new Map<string, SSEServerTransport>();

await serveInChild({
  name: 'legacy-sse',
  handle: async (req, res, path) => {
    if (path === '/sse') {
      if (req.method !== 'GET') {
        res.setHeader('allow', 'GET');
        rpcError(res, 405, 'Method not allowed.');
        return;
      }
      const transport = new SSEServerTransport('/messages', res);
      const server = createEchoServer();
      sessions.set(transport.sessionId, transport);
      res.on('close', () => {
        sessions.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
      return;
    }
    if (path === '/messages' && req.method === 'POST') {
      const sessionId = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('sessionId');
      const transport = sessions.get(sessionId ?? '');
      if (transport === undefined) rpcError(res, 404, 'Session not found');
      else await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  },
  closeSessions: async () => {
    await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
    sessions.clear();
  },
});
