/**
 * The MCP server every benchmark server child exposes: the MCP SDK's own `McpServer` with one
 * `echo` tool that has an input and an output schema (so clients validate both).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';

// One validator for the whole child. The SDK's `Server` builds a fresh Ajv instance when it is
// given none (about 0.5 ms of CPU each on the bench VM), and a sessionless server builds a server
// per POST: three per call, a quarter of the child's CPU. The validator holds no per-session
// state (the server uses it only to check elicitation answers), so a deployment shares one.
const validator = new AjvJsonSchemaValidator();

/** A fresh `McpServer` with the `echo` tool; one per session or per stateless request. */
export function createEchoServer(): McpServer {
  const server = new McpServer(
    { name: 'bench', version: '1.0.0' },
    { jsonSchemaValidator: validator },
  );
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
