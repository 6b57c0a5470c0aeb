/**
 * The MCP server every benchmark server child exposes: the MCP SDK's own `McpServer` with one
 * `echo` tool that has an input and an output schema (so clients validate both).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A fresh `McpServer` with the `echo` tool; one per session or per stateless request. */
export function createEchoServer(): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes the message back.',
      inputSchema: { message: z.string() },
      outputSchema: { echoed: z.string() },
    },
    async ({ message }) => ({
      content: [{ type: 'text', text: `Echo: ${message}` }],
      structuredContent: { echoed: message },
    }),
  );
  return server;
}
