/**
 * Every per-call alternative of the benchmark's Streamable tables, ours included, checks the
 * echoed value of its answer and fails loudly when it is wrong: a row that timed wrong answers
 * would measure something else under its name. Against a real MCP SDK server on loopback that
 * echoes the message, and one that answers a well-formed but different value.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildAlternative, STREAMABLE_IDS, streamableSpec } from '../../bench/alternative-specs.js';
import { MESSAGE } from '../../bench/clients.js';
import { listenOnLoopback, stopServer, trackSockets } from '../fixtures/http-helpers.js';

/** A stateless SDK server at `/right` (echoes the message) and `/wrong` (echoes another one). */
function echoServer(echoed: (message: string) => string): McpServer {
  const server = new McpServer({ name: 'echo-check', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes the message back.',
      inputSchema: { message: z.string() },
      outputSchema: { echoed: z.string() },
    },
    async ({ message }) => ({
      content: [{ type: 'text', text: `Echo: ${echoed(message)}` }],
      structuredContent: { echoed: echoed(message) },
    }),
  );
  return server;
}

let http: Server;
let sockets: Set<Socket>;
let origin: string;

beforeAll(async () => {
  http = createServer((req, res) => {
    const wrong = req.url === '/wrong';
    const server = echoServer((message) => (wrong ? `${message}!` : message));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  sockets = trackSockets(http);
  origin = await listenOnLoopback(http);
});

afterAll(async () => {
  await stopServer(http, sockets);
});

describe('the Streamable alternatives of the benchmark', () => {
  it.each(STREAMABLE_IDS)('%s answers a call whose echo is right', async (id) => {
    const alternative = await buildAlternative(streamableSpec(id, `${origin}/right`, false));
    try {
      await expect(alternative.call()).resolves.toBeUndefined();
    } finally {
      await alternative.close();
    }
  });

  it.each(STREAMABLE_IDS)('%s throws on an answer that echoes another value', async (id) => {
    const alternative = await buildAlternative(streamableSpec(id, `${origin}/wrong`, false));
    try {
      await expect(alternative.call()).rejects.toThrow(
        `unexpected echo result: {"content":[{"type":"text","text":"Echo: ${MESSAGE}!"}],"structuredContent":{"echoed":"${MESSAGE}!"}}`,
      );
    } finally {
      await alternative.close();
    }
  });
});
