/**
 * Server child: the MCP SDK v2 `McpServer` (`@modelcontextprotocol/server` 2.x) behind
 * `createMcpHandler` at `/dual`, the SDK's default deployment: MCP 2026-07-28 natively, and
 * 2025-11-25 clients served stateless (each `initialize` answered, no session). A fresh server per
 * request (the handler's factory), with the same `echo` tool as the v1 children.
 * `node --import tsx bench/servers/mcp-dual-revision.ts` (the runner forks it).
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { z } from 'zod';
import { readBodyText, relayToWebHandler } from '../../test/fixtures/http-helpers.js';
import { serveInChild } from './serve.js';

// One validator for the child, as the v1 children share one (see echo-mcp-server.ts).
const validator = new AjvJsonSchemaValidator();

function createEchoServer(): McpServer {
  const server = new McpServer(
    { name: 'bench-dual', version: '1.0.0' },
    { jsonSchemaValidator: validator },
  );
  server.registerTool(
    'echo',
    {
      description: 'Echoes the message back.',
      inputSchema: z.object({ message: z.string() }),
      outputSchema: z.object({ echoed: z.string() }),
    },
    async ({ message }) => ({
      content: [{ type: 'text', text: `Echo: ${message}` }],
      structuredContent: { echoed: message },
    }),
  );
  return server;
}

const handler = createMcpHandler(createEchoServer);

await serveInChild({
  name: 'mcp-dual-revision',
  handle: async (req, res, path) => {
    if (path !== '/dual') {
      res.writeHead(404).end();
      return;
    }
    const body = req.method === 'POST' ? await readBodyText(req) : undefined;
    await relayToWebHandler(handler, req, res, body);
  },
  closeSessions: () => handler.close(),
});
