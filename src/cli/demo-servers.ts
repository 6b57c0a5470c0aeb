/**
 * The demo's embedded servers on 127.0.0.1: one MCP SDK server answering Streamable HTTP at
 * `/mcp` and legacy HTTP+SSE at `/legacy` (whose POST is refused with 405), and a route that
 * never answers, to show a deadline firing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** The running demo servers. */
export interface DemoServers {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Requests seen, as `METHOD path`. */
  readonly seen: string[];
  /** Stops every server and socket. */
  close(): Promise<void>;
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  server.registerTool(
    'forecast',
    {
      description: 'The weather forecast for a city',
      inputSchema: { city: z.string(), days: z.number().int().min(1).max(7) },
    },
    async ({ city, days }) => ({
      content: [{ type: 'text', text: `${city}: sunny for ${days} day(s)` }],
      structuredContent: { city, days, outlook: 'sunny' },
    }),
  );
  server.registerTool(
    'whoami',
    { description: 'Who the server thinks you are' },
    async (extra) => ({
      content: [
        { type: 'text', text: String(extra.requestInfo?.headers.authorization ?? 'anonymous') },
      ],
    }),
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown;
}

/** Starts the demo servers on an OS-assigned loopback port. */
export async function startDemoServers(): Promise<DemoServers> {
  const seen: string[] = [];
  const legacy = new Map<string, SSEServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/mcp' && req.method === 'POST') {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = buildServer();
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, await readJson(req));
      return;
    }
    if (url.pathname === '/legacy' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      legacy.set(transport.sessionId, transport);
      res.on('close', () => legacy.delete(transport.sessionId));
      await buildServer().connect(transport);
      return;
    }
    if (url.pathname === '/messages' && req.method === 'POST') {
      const transport = legacy.get(url.searchParams.get('sessionId') ?? '');
      if (transport === undefined) res.writeHead(404).end();
      else await transport.handlePostMessage(req, res);
      return;
    }
    if (url.pathname === '/hang') return; // never answers: the client's deadline must fire
    res.writeHead(405, { allow: 'GET' }).end('Method Not Allowed');
  };
  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}
