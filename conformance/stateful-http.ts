/**
 * A stateful Streamable HTTP host for MCP SDK servers on 127.0.0.1: one server instance per
 * session (what relaying needs: the session's server knows the client's capabilities and routes
 * its answers), opened only by an `initialize` and closed with its session, every HTTP request
 * counted by method. Used by the conformance server, the
 * gateway in front of it, and the tests that start either.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One HTTP request the host received. */
export interface HostedRequest {
  /** `GET`, `POST` or `DELETE`. */
  readonly method: string;
  /** The JSON-RPC method of a POST, when it carries one (a response posted back has none). */
  readonly rpcMethod: string | undefined;
}

/** A running host. */
export interface StatefulHost {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: readonly HostedRequest[];
  /** Sessions open now (initialised and not yet ended by `DELETE` or a closed transport). */
  openSessions(): number;
  /** Server instances alive now: one per open session, none for a request that opened none. */
  liveServers(): number;
  /** Closes every session and the listener. */
  close(): Promise<void>;
}

/** Starts a host on `port` (0: the OS picks); `create` builds each new session's server. */
export async function startStatefulHost(
  create: () => McpServer | Server,
  port = 0,
): Promise<StatefulHost> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers = new Set<McpServer | Server>();
  const requests: HostedRequest[] = [];
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const rpcMethod = (body as { method?: unknown } | undefined)?.method;
      requests.push({
        method: req.method ?? 'GET',
        rpcMethod: typeof rpcMethod === 'string' ? rpcMethod : undefined,
      });
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        if (sessionId !== undefined) {
          res.writeHead(404).end();
          return;
        }
        // Only an `initialize` opens a session (and a server). Anything else without one (a 2026
        // client's `server/discover` probe, a stray GET) is refused, so it leaves nothing behind.
        if (req.method !== 'POST' || rpcMethod !== 'initialize') {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
              id: null,
            }),
          );
          return;
        }
        const server = create();
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
          onsessionclosed: (id) => {
            sessions.delete(id);
          },
        });
        // However the session ends (DELETE, a closed transport), its server goes with it.
        created.onclose = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
          if (servers.delete(server)) void server.close();
        };
        servers.add(server);
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    requests,
    openSessions: () => sessions.size,
    liveServers: () => servers.size,
    async close() {
      for (const server of [...servers]) await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        http.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** The request body parsed as JSON, or `undefined` when it is not JSON. */
async function readJson(req: AsyncIterable<Buffer | string>): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
