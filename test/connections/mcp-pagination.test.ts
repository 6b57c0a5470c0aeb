/**
 * A paginated `tools/list`: discovery follows `nextCursor` within one client and one deadline,
 * sends each cursor back, mounts every page's tools, and refuses a listing that never ends.
 */
import { describe, expect, it } from 'vitest';
import {
  ConnectionProtocolError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { MAX_TOOL_LIST_PAGES } from '../../src/machines/mcp-operation/mcp-operation.policy.js';
import { type FaultServer, mcpHandler, reply, type SeenRequest } from '../fixtures/fault-server.js';
import { useFaultServers } from '../support/fault-suite.js';

const { start } = useFaultServers();

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: {} } });

/** The answer to a `tools/list` request: page N carries tool `tN` and a cursor to N+1 until `pages`. */
function pageMessage(request: SeenRequest, pages: number) {
  const cursor = (request.rpc?.params as { cursor?: string } | undefined)?.cursor;
  const page = cursor === undefined ? 1 : Number(cursor.replace('page-', ''));
  const result = {
    tools: [tool(`t${page}`)],
    ...(page < pages ? { nextCursor: `page-${page + 1}` } : {}),
    // A 2026-07-28 server's results carry `resultType` (MCP 2026-07-28).
    ...(request.headers['mcp-protocol-version'] === '2026-07-28' ? { resultType: 'complete' } : {}),
  };
  return { jsonrpc: '2.0', id: request.rpc?.id, result };
}

/** Serves `tools/list` pages ({@link pageMessage}). */
function pagedList(pages: number) {
  return (request: SeenRequest) => reply.json(200, pageMessage(request, pages));
}

function listCursors(server: FaultServer): (string | undefined)[] {
  return server.requests
    .filter((request) => request.rpc?.method === 'tools/list')
    .map((request) => (request.rpc?.params as { cursor?: string } | undefined)?.cursor);
}

// These pages are served on the 2025-11-25 wire (the connections pin it); the last test pages on
// the stateless one.
describe('paginated discovery', () => {
  it('follows nextCursor and mounts the tools of every page with one handshake', async () => {
    const server = await start(mcpHandler({ 'tools/list': pagedList(3) }));
    const tools = await mountConnections([
      defineMcpClientConnection({
        name: 'paged',
        transport: { url: server.url, protocolVersion: '2025-11-25' },
      }),
    ]);
    expect(tools.map((entry) => entry.name)).toEqual(['t1', 't2', 't3']);
    expect(server.requests.map((request) => request.rpc?.method)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/list',
      'tools/list',
    ]);
    expect(listCursors(server)).toEqual([undefined, 'page-2', 'page-3']);
    const ids = server.requests.map((request) => request.rpc?.id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses a listing that does not end within the page limit', async () => {
    const server = await start(mcpHandler({ 'tools/list': pagedList(1_000) }));
    const error = await mountConnections([
      defineMcpClientConnection({
        name: 'endless',
        transport: { url: server.url, protocolVersion: '2025-11-25' },
      }),
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error).toMatchObject({ operation: 'tools/list', phase: 'discovery' });
    expect(listCursors(server)).toHaveLength(MAX_TOOL_LIST_PAGES);
    // The refusal quotes every byte of the listing, the last page's included.
    const listed = server.requests.filter((request) => request.rpc?.method === 'tools/list');
    const bytes = listed.map((request) =>
      Buffer.byteLength(JSON.stringify(pageMessage(request, 1_000))),
    );
    expect(error).toMatchObject({ observedReadBytes: bytes.reduce((sum, n) => sum + n, 0) });
  });

  it('charges every page to the one discovery byte budget', async () => {
    const server = await start(mcpHandler({ 'tools/list': pagedList(40) }));
    const error = await mountConnections([
      defineMcpClientConnection({
        name: 'paged',
        transport: { url: server.url, protocolVersion: '2025-11-25' },
        limits: { discovery: { maxResponseBytes: 2_000 } },
      }),
    ]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'ConnectionResponseTooLargeError',
      operation: 'tools/list',
      maxBytes: 2_000,
    });
    // Each page is about 120 bytes, so the budget ran out after some pages, not on the first.
    expect(listCursors(server).length).toBeGreaterThan(5);
    expect(listCursors(server).length).toBeLessThan(40);
  });

  it('pages the same way on the stateless wire: one POST a page, no handshake', async () => {
    const server = await start(mcpHandler({ 'tools/list': pagedList(3) }, { stateless: true }));
    const tools = await mountConnections([
      defineMcpClientConnection({ name: 'paged', transport: { url: server.url } }),
    ]);
    expect(tools.map((entry) => entry.name)).toEqual(['t1', 't2', 't3']);
    expect(server.requests.map((request) => request.rpc?.method)).toEqual([
      'tools/list',
      'tools/list',
      'tools/list',
    ]);
    expect(listCursors(server)).toEqual([undefined, 'page-2', 'page-3']);
    expect(server.requests.map((request) => request.headers['mcp-method'])).toEqual([
      'tools/list',
      'tools/list',
      'tools/list',
    ]);
  });
});
