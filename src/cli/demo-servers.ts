/**
 * The demo's embedded servers, on one loopback port: an MCP 2026-07-28 server (the SDK v2's
 * `createMcpHandler`, 2026 only) at `/stateless`; a 2025-11-25 Streamable HTTP server (SDK v1,
 * stateless) at `/crm` that checks its bearer token and answers a revoked one 401 with a
 * challenge; a legacy HTTP+SSE-only server (SDK v1) at `/legacy`, whose Streamable POST is refused
 * 405 and whose stream announces `/messages`; an OpenAPI service serving its own document at
 * `/openapi.json` (one operation outside the subset); and a file at `/files/report.txt`. Every
 * request is counted, by the step the demo is on.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as V1Server } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  McpServer as V2Server,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { relayToWebHandler } from './web-relay.js';

/** The running demo servers. */
export interface DemoServers {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Requests seen so far (the demo reads the difference around each step). */
  requests(): number;
  /** Calls of `/stateless`'s `slow` that the server saw cancelled. */
  cancelledOnServer(): number;
  /** Revokes the token `/crm` accepts and accepts `next` instead. */
  rotateToken(next: string): void;
  close(): Promise<void>;
}

/** The token `/crm` accepts first. */
export const FIRST_TOKEN = 'token-1';

/**
 * The 2026 server's tools: one answer, progress, a question for the caller, a 2 MB answer, one
 * that waits.
 */
function statelessServer(state: { cancelled: number }): V2Server {
  const server = new V2Server({ name: 'demo-2026', version: '1.0.0' });
  server.registerTool(
    'lookup',
    {
      description: 'Looks up a customer.',
      inputSchema: z.object({ id: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ id }) => ({ content: [{ type: 'text', text: `customer ${id}: Ada Lovelace` }] }),
  );
  server.registerTool(
    'report',
    { description: 'Builds a report in three steps.', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const step of [1, 2, 3]) {
        if (progressToken === undefined) break;
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: 3, message: `step ${step}` },
        });
      }
      return { content: [{ type: 'text', text: 'report ready' }] };
    },
  );
  server.registerTool(
    'deploy',
    {
      description: 'Deploys, after the caller confirms.',
      inputSchema: z.object({ env: z.string() }),
      annotations: { destructiveHint: true },
    },
    async ({ env }, ctx) => {
      const answer = z.object({ confirm: z.boolean() });
      const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', answer);
      if (confirmed?.confirm !== true) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy to ${env}?`,
              requestedSchema: answer,
            }),
          },
        });
      }
      return { content: [{ type: 'text', text: `deployed to ${env}` }] };
    },
  );
  server.registerTool(
    'users',
    { description: 'Lists every user of the directory.', inputSchema: z.object({}) },
    async () => ({ content: [{ type: 'text', text: JSON.stringify(directoryUsers()) }] }),
  );
  server.registerTool(
    'slow',
    { description: 'Works until it is cancelled.', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const { signal } = ctx.mcpReq;
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      state.cancelled += 1;
      return { content: [{ type: 'text', text: 'stopped' }] };
    },
  );
  return server;
}

/** 17,600 user records, about 2 MB of JSON: an answer far over any model's result budget. */
function directoryUsers() {
  return Array.from({ length: 17_600 }, (_, index) => ({
    id: index + 1,
    login: `user-${index + 1}`,
    url: `https://example.org/users/${index + 1}`,
    sha: (((index + 1) * 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(5),
  }));
}

/** A 2025 server's tools: `whoami` (`/crm`) or `forecast` (`/legacy`). */
function v1Server(tool: 'whoami' | 'forecast'): V1Server {
  const server = new V1Server({ name: `demo-${tool}`, version: '1.0.0' });
  if (tool === 'whoami') {
    server.registerTool('whoami', { description: 'Who the server thinks you are.' }, async () => ({
      content: [{ type: 'text', text: 'you are ada' }],
    }));
  } else {
    server.registerTool(
      'forecast',
      { description: 'The forecast for a city.', inputSchema: { city: z.string() } },
      async ({ city }) => ({ content: [{ type: 'text', text: `${city}: sunny` }] }),
    );
  }
  return server;
}

const FORECASTS_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Forecasts', version: '1.0.0' },
  servers: [{ url: '/api' }],
  paths: {
    '/forecasts/{city}': {
      get: {
        operationId: 'getForecast',
        summary: 'The forecast for a city',
        parameters: [{ name: 'city', in: 'path', required: true, schema: { type: 'string' } }],
      },
    },
    '/radar': {
      post: { operationId: 'uploadRadar', requestBody: { content: { 'image/png': {} } } },
    },
  },
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the demo servers on an OS-assigned loopback port. */
export async function startDemoServers(): Promise<DemoServers> {
  const state = { cancelled: 0, requests: 0, token: FIRST_TOKEN };
  const stateless = createMcpHandler(() => statelessServer(state), { legacy: 'reject' });
  const streams = new Map<string, SSEServerTransport>();
  let origin = '';
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    state.requests += 1;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/stateless') {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      return relayToWebHandler(stateless, req, res, body);
    }
    if (url.pathname === '/crm' && req.method === 'POST') {
      if (req.headers.authorization !== `Bearer ${state.token}`) {
        const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/crm", scope="crm.read"`;
        res.writeHead(401, { 'www-authenticate': challenge }).end();
        return;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = v1Server('whoami');
      res.on('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(await readBody(req)) as unknown);
      return;
    }
    if (url.pathname === '/legacy' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      streams.set(transport.sessionId, transport);
      res.on('close', () => streams.delete(transport.sessionId));
      await v1Server('forecast').connect(transport);
      return;
    }
    if (url.pathname === '/messages' && req.method === 'POST') {
      const transport = streams.get(url.searchParams.get('sessionId') ?? '');
      if (transport === undefined) res.writeHead(404).end();
      else await transport.handlePostMessage(req, res);
      return;
    }
    if (url.pathname === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(FORECASTS_DOCUMENT));
      return;
    }
    const forecast = /^\/api\/forecasts\/([^/]+)$/.exec(url.pathname);
    if (forecast !== null) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ city: decodeURIComponent(forecast[1] ?? ''), outlook: 'sunny' }));
      return;
    }
    if (url.pathname === '/files/report.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('quarterly numbers\n');
      return;
    }
    res.writeHead(405, { allow: 'GET' }).end('Method Not Allowed');
  };
  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    requests: () => state.requests,
    cancelledOnServer: () => state.cancelled,
    rotateToken: (next) => {
      state.token = next;
    },
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}
