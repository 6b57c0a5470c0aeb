/**
 * Server child: the MCP SDK `McpServer` over Streamable HTTP at `/sessionless`, JSON responses,
 * no sessions: a fresh server and transport per POST (the SDK's sessionless pattern).
 * `node --import tsx bench/servers/mcp-sessionless.ts` (the runner forks it).
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createEchoServer } from './echo-mcp-server.js';
import { rpcError, serveInChild } from './serve.js';

await serveInChild({
  name: 'mcp-stateless',
  handle: async (req, res, path) => {
    if (path !== '/sessionless') {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      rpcError(res, 405, 'Method not allowed.');
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createEchoServer();
    res.on('close', () => {
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  },
});
