/**
 * The benchmark's MCP server: the MCP SDK's own `McpServer` with one `echo` tool on `node:http`,
 * Streamable HTTP with JSON responses, in two variants:
 * - `/stateless`: no sessions; a fresh server and transport per POST (the SDK's stateless pattern);
 * - `/stateful`: session ids, one server and transport per session, ended by DELETE.
 * Every HTTP request is counted by method so the benchmark can print requests per call.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export type BenchPath = '/stateless' | '/stateful';

/** HTTP requests received, by method. */
export type RequestCounts = Record<string, number>;

export interface BenchServer {
  readonly origin: string;
  url(path: BenchPath): string;
  /** Requests received since the last `resetCounts()`. */
  counts(): RequestCounts;
  resetCounts(): void;
  /** Stateful sessions currently open. */
  openSessions(): number;
  close(): Promise<void>;
}

function createEchoServer(): McpServer {
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

function rpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function handleStateless(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
}

async function handleStateful(
  sessions: Map<string, StreamableHTTPServerTransport>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const header = req.headers['mcp-session-id'];
  const sessionId = Array.isArray(header) ? header[0] : header;
  const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
  if (existing !== undefined) {
    await existing.handleRequest(req, res);
    return;
  }
  if (sessionId !== undefined) {
    rpcError(res, 404, 'Session not found');
    return;
  }
  if (req.method !== 'POST') {
    rpcError(res, 400, 'Bad Request: no session id');
    return;
  }
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
  if (transport.sessionId === undefined) await transport.close();
}

/** Starts the server on 127.0.0.1 with an OS-assigned port. */
export async function startBenchServer(): Promise<BenchServer> {
  let counts: RequestCounts = {};
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    counts[method] = (counts[method] ?? 0) + 1;
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const handled =
      path === '/stateless'
        ? handleStateless(req, res)
        : path === '/stateful'
          ? handleStateful(sessions, req, res)
          : Promise.resolve(res.writeHead(404).end());
    handled.catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    counts: () => ({ ...counts }),
    resetCounts: () => {
      counts = {};
    },
    openSessions: () => sessions.size,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
