/**
 * The servers the benchmark starts, each in its own child process. An entry without a script is
 * a placeholder for a server not written yet; the runner lists it as not started. The OpenAPI
 * mount benchmark (section 8) needs no server (its documents are given to the mount as parsed
 * objects); the OpenAPI per-call benchmark (section 9) calls the `openapi` service.
 */

/** Which server; the key every benchmark uses to ask for one. */
export type ServerId =
  | 'sessionless'
  | 'stateful'
  | 'legacy-sse'
  | 'openapi'
  | 'dual-revision'
  | 'modern-load';

/** One server of the benchmark. */
export interface ServerSpec {
  readonly id: ServerId;
  readonly title: string;
  /** The child's entry, relative to `bench/`; absent for a planned server. */
  readonly script?: string;
  /** The path clients are pointed at. */
  readonly path: string;
  /** Why the server is not started yet (planned entries only). */
  readonly planned?: string;
}

export const SERVERS: readonly ServerSpec[] = [
  {
    id: 'sessionless',
    title: 'MCP SDK McpServer, Streamable HTTP, sessionless, JSON responses',
    script: 'servers/mcp-sessionless.ts',
    path: '/sessionless',
  },
  {
    id: 'stateful',
    title: 'MCP SDK McpServer, Streamable HTTP, sessions, JSON responses',
    script: 'servers/mcp-stateful.ts',
    path: '/stateful',
  },
  {
    id: 'legacy-sse',
    title: 'MCP SDK McpServer, legacy HTTP+SSE (SSEServerTransport)',
    script: 'servers/legacy-sse.ts',
    path: '/sse',
  },
  {
    id: 'dual-revision',
    title: 'MCP SDK v2 McpServer, createMcpHandler: 2026-07-28, and 2025-11-25 sessionless',
    script: 'servers/mcp-dual-revision.ts',
    path: '/dual',
  },
  {
    id: 'modern-load',
    title:
      'trivial node:http server speaking 2026-07-28 (canned answers; holds answers on request)',
    script: 'servers/modern-load.ts',
    path: '/modern',
  },
  {
    id: 'openapi',
    title: 'OpenAPI service, node:http JSON API (POST /api/echo)',
    script: 'servers/openapi-service.ts',
    path: '/api',
  },
];

/** The servers of the MCP sections (1 to 7). */
export const MCP_SERVER_IDS: readonly ServerId[] = ['sessionless', 'stateful', 'legacy-sse'];
