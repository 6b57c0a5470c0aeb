/**
 * A gateway on the MCP SDK v2 line, as the v2 SDK's gateway guide composes one: 2026-07-28
 * requests go to `createMcpHandler` (`legacy: 'reject'`, a v2 `McpServer` per request, each
 * mounting the tools with `mountMcp`), 2025-11-25 requests (`isLegacyRequest`) to sessions that
 * only an `initialize` opens, so a 2025 client keeps its server requests and its cancellation.
 * One request-state codec serves the server's seam and the mount (decision 0026). Run it in
 * front of any server: `node --import tsx conformance/gateway-v2.ts <upstream-url> [port]`.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer as V2McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import {
  type AnyRuntimeToolDefinition,
  createGatewayRequestState,
  mountMcp,
} from '../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../src/connections/index.js';
import { parseJson, rpcEnvelopes, serveWebHandler } from '../test/fixtures/http-helpers.js';

/** A running server: its MCP URL, its request lines, and how to stop it. */
interface LoggedServer {
  readonly url: string;
  /** `METHOD rpc-method` of each request since start or the last `resetLog()`. */
  lines(): string[];
  resetLog(): void;
  close(): Promise<void>;
}

/** A running v2 gateway: its logged requests, and its 2025 sessions and server instances. */
export interface V2Gateway extends LoggedServer {
  /** 2025 sessions open now. */
  openSessions(): number;
  /** Server instances alive now for 2025 sessions (2026 requests keep none). */
  liveServers(): number;
}

const NO_SESSION = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
  id: null,
});

/**
 * A v2 gateway as the v2 SDK's gateway guide composes one: 2026-07-28 requests go to
 * `createMcpHandler` (`legacy: 'reject'`, a v2 `McpServer` per request), 2025-11-25 requests
 * (`isLegacyRequest`) to sessions, a v2 `McpServer` per session opened only by `initialize`, so
 * a 2025 client keeps its server requests and its cancellation. One request-state codec serves
 * the server's seam and the mount.
 */
export async function startV2Gateway(
  tools: readonly AnyRuntimeToolDefinition[],
  port = 0,
): Promise<V2Gateway> {
  const requestState = createGatewayRequestState();
  const factory = () => {
    const server = new V2McpServer(
      { name: 'v2-gateway', version: '1.0.0' },
      { capabilities: { logging: {} }, requestState },
    );
    mountMcp(server, tools, { requestState });
    return server;
  };
  const stateless = createMcpHandler(factory, { legacy: 'reject' });
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const servers = new Set<V2McpServer>();
  const legacy = async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      return transport === undefined
        ? new Response(null, { status: 404 })
        : transport.handleRequest(request);
    }
    const body: unknown = request.method === 'POST' ? await request.clone().json() : undefined;
    if ((body as { method?: unknown } | undefined)?.method !== 'initialize') {
      return new Response(NO_SESSION, {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    }
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      if (servers.delete(server)) void server.close();
    };
    servers.add(server);
    await server.connect(transport);
    return transport.handleRequest(request);
  };
  const handler = {
    fetch: async (request: Request) =>
      (await isLegacyRequest(request)) ? legacy(request) : stateless.fetch(request),
  };
  const log: string[] = [];
  const served = await serveWebHandler(handler, {
    port,
    onRequest: (req, body) => {
      const methods = rpcEnvelopes(body === undefined ? undefined : parseJson(body))
        .map((envelope) => envelope.method ?? '')
        .join(',');
      log.push(`${req.method ?? 'GET'} ${methods}`.trim());
    },
  });
  return {
    url: `${served.origin}/mcp`,
    lines: () => [...log],
    resetLog: () => {
      log.length = 0;
    },
    openSessions: () => sessions.size,
    liveServers: () => servers.size,
    close: async () => {
      for (const server of [...servers]) await server.close();
      await stateless.close();
      await served.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const upstream = process.argv[2];
  if (upstream === undefined) throw new Error('usage: gateway-v2.ts <upstream-url> [port]');
  const tools = await mountConnections([
    defineMcpClientConnection({
      name: 'upstream',
      transport: { url: upstream },
      timeoutMs: 30_000,
    }),
  ]);
  const gateway = await startV2Gateway(tools, Number(process.argv[3] ?? 0));
  console.log(gateway.url);
}
