/**
 * The demo's embedded servers on 127.0.0.1: one MCP SDK server answering Streamable HTTP at
 * `/mcp` and legacy HTTP+SSE at `/legacy` (whose POST is refused with 405), a small OpenAPI
 * service (its document at `/openapi.json`, its API under `/api`), and a route that never answers,
 * to show a deadline firing.
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

/** The OpenAPI document of the demo's forecast service; `/upload` is outside the subset. */
const FORECAST_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Forecasts', version: '1.0.0' },
  servers: [{ url: '/api' }],
  security: [{ key: [] }],
  paths: {
    '/forecasts/{city}': {
      get: {
        operationId: 'getForecast',
        summary: 'The forecast for a city',
        parameters: [
          { name: 'city', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 7 } },
        ],
      },
    },
    '/upload': {
      post: { operationId: 'uploadRadar', requestBody: { content: { 'image/png': {} } } },
    },
  },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
};

function answerForecastApi(url: URL, req: IncomingMessage, res: ServerResponse): void {
  const match = /^\/api\/forecasts\/([^/]+)$/.exec(url.pathname);
  const body =
    match === null
      ? { status: 404, json: { message: 'not found' } }
      : {
          status: 200,
          json: {
            city: decodeURIComponent(match[1] ?? ''),
            days: Number(url.searchParams.get('days') ?? 1),
            outlook: 'sunny',
            apiKey: String(req.headers['x-api-key'] ?? 'none'),
          },
        };
  res.writeHead(body.status, { 'content-type': 'application/json' }).end(JSON.stringify(body.json));
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
    if (url.pathname === '/openapi.json') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(FORECAST_DOCUMENT));
      return;
    }
    if (url.pathname.startsWith('/api/')) return answerForecastApi(url, req, res);
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
