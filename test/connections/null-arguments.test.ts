/**
 * `null` for an optional argument is "not provided" (decision 0036), on real servers: the MCP SDK
 * v2's own server speaking 2026-07-28 and 2025-11-25, and an OpenAPI service on node:http. What
 * each server receives is read from the wire: the `Mcp-Param-*` headers, the call's arguments,
 * the query and the JSON body. A schema that accepts `null` keeps it; a required `null` is still
 * refused before any request.
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyRuntimeToolDefinition, mountAgent, runTool } from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { type FaultServer, reply, startFaultServer } from '../fixtures/fault-server.js';
import { flattenHeaders, parseJson, serveWebHandler } from '../fixtures/http-helpers.js';
import { modelCalling, run, toolMessageOf } from '../support/agent-model.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

/** One `tools/call` as the MCP server received it. */
interface SeenCall {
  readonly version: string | undefined;
  readonly paramHeaders: Readonly<Record<string, string>>;
  readonly arguments: unknown;
}

/** A tool with a required routed argument, an optional routed boolean and a nullable note. */
function reportServer(): McpServer {
  const server = new McpServer({ name: 'null-peer', version: '1.0.0' });
  server.registerTool(
    'report',
    {
      description: 'Reports from a region.',
      inputSchema: z.object({
        region: z.string().meta({ 'x-mcp-header': 'Region' }),
        verbose: z.boolean().meta({ 'x-mcp-header': 'Verbose' }).optional(),
        note: z.string().nullable().optional(),
      }),
    },
    async ({ region }) => ({ content: [{ type: 'text', text: `report from ${region}` }] }),
  );
  return server;
}

const calls: SeenCall[] = [];
const handler = createMcpHandler(reportServer);
let mcp: Awaited<ReturnType<typeof serveWebHandler>>;
let service: FaultServer;
let baseline: ReturnType<typeof activeResourceCounts>;
const unhandled = trackUnhandledRejections();

beforeAll(async () => {
  baseline = activeResourceCounts();
  mcp = await serveWebHandler(handler, {
    onRequest: (req, body) => {
      const message = body === undefined ? undefined : parseJson(body);
      const rpc = message as { method?: string; params?: { arguments?: unknown } } | undefined;
      if (rpc?.method !== 'tools/call') return;
      const headers = flattenHeaders(req.headers);
      calls.push({
        version: headers['mcp-protocol-version'],
        paramHeaders: Object.fromEntries(
          Object.entries(headers).filter(([name]) => name.startsWith('mcp-param-')),
        ),
        arguments: rpc.params?.arguments,
      });
    },
  });
  service = await startFaultServer((request) =>
    request.path === '/openapi.json' ? reply.json(200, NOTES_DOCUMENT) : reply.json(200, {}),
  );
});
beforeEach(() => {
  calls.length = 0;
});
afterAll(async () => {
  await handler.close();
  await mcp.close();
  await service.close();
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

async function mountedTool(
  connection: Parameters<typeof mountConnections>[0][number],
  name: string,
): Promise<AnyRuntimeToolDefinition> {
  const tools = await mountConnections([connection]);
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`${name} not mounted`);
  return tool;
}

function mcpConnection(protocolVersion: '2026-07-28' | '2025-11-25') {
  return defineMcpClientConnection({
    name: 'peer',
    transport: { url: `${mcp.origin}/mcp`, protocolVersion },
  });
}

describe.each([
  ['2026-07-28', { 'mcp-param-region': 'eu' }],
  ['2025-11-25', {}],
] as const)('an MCP server speaking %s', (version, regionHeader) => {
  it('receives no property, and no Mcp-Param header, for a null optional argument', async () => {
    const report = await mountedTool(mcpConnection(version), 'report');
    const result = await runTool(report, { region: 'eu', verbose: null }, { source: 'internal' });
    expect(result).toMatchObject({ ok: true });
    expect(calls).toEqual([{ version, paramHeaders: regionHeader, arguments: { region: 'eu' } }]);
  });

  it('receives a null its schema accepts, as null', async () => {
    const report = await mountedTool(mcpConnection(version), 'report');
    const result = await runTool(
      report,
      { region: 'eu', verbose: false, note: null },
      { source: 'internal' },
    );
    expect(result).toMatchObject({ ok: true });
    const verboseHeader = version === '2026-07-28' ? { 'mcp-param-verbose': 'false' } : {};
    expect(calls).toEqual([
      {
        version,
        paramHeaders: { ...regionHeader, ...verboseHeader },
        arguments: { region: 'eu', verbose: false, note: null },
      },
    ]);
  });

  it('still refuses a null for a required argument, before any request', async () => {
    const report = await mountedTool(mcpConnection(version), 'report');
    const result = await runTool(report, { region: null }, { source: 'internal' });
    expect(result).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['region'], code: 'invalid_type' }] },
    });
    expect(calls).toEqual([]);
  });
});

describe('an agent whose model sends null for the fields it leaves out', () => {
  it('gets the tool result, and the server no property and no header for them', async () => {
    const tools = mountAgent({
      runtimeTools: await mountConnections([mcpConnection('2026-07-28')]),
    });
    const model = modelCalling('report', { region: 'eu', verbose: null, note: null });
    await run(model, tools);
    expect(toolMessageOf(model)?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolName: 'report',
        output: expect.objectContaining({ type: 'json' }),
      }),
    ]);
    expect(calls).toEqual([
      {
        version: '2026-07-28',
        paramHeaders: { 'mcp-param-region': 'eu' },
        arguments: { region: 'eu', note: null },
      },
    ]);
  });
});

/** An OpenAPI 3.0 service: a query with an optional integer, a body with a nullable note. */
const NOTES_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'notes', version: '1' },
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'after', in: 'query', schema: { type: 'string', nullable: true } },
          { name: 'x-trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
      post: {
        operationId: 'addNote',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  text: { type: 'string' },
                  tag: { type: 'string' },
                  note: { type: 'string', nullable: true },
                },
                required: ['text'],
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

function notesConnection() {
  return defineOpenApiConnection({
    name: 'notes',
    spec: `${service.origin}/openapi.json`,
    baseUrl: service.origin,
  });
}

describe('an OpenAPI service', () => {
  let start = 0;
  beforeEach(() => {
    start = service.requests.length;
  });
  /** The calls of the running test, as the service saw them (the document load left out). */
  const seen = () =>
    service.requests
      .slice(start)
      .filter((request) => request.path !== '/openapi.json')
      .map((request) => ({
        line: `${request.method} ${request.path}${request.search}`,
        trace: request.headers['x-trace'],
        body: request.json,
      }));

  it('receives no query or header parameter for a null optional one', async () => {
    const list = await mountedTool(notesConnection(), 'notes__listNotes');
    const result = await runTool(list, { limit: null, 'x-trace': null }, { source: 'internal' });
    expect(result).toMatchObject({ ok: true });
    expect(seen()).toEqual([{ line: 'GET /notes', trace: undefined, body: undefined }]);
  });

  it('accepts a null for a nullable query parameter, which a query string cannot carry', async () => {
    const list = await mountedTool(notesConnection(), 'notes__listNotes');
    const result = await runTool(list, { limit: 5, after: null }, { source: 'internal' });
    expect(result).toMatchObject({ ok: true });
    expect(seen()).toEqual([{ line: 'GET /notes?limit=5', trace: undefined, body: undefined }]);
  });

  it('receives no body property for a null optional one, and a nullable one as null', async () => {
    const add = await mountedTool(notesConnection(), 'notes__addNote');
    const result = await runTool(
      add,
      { body: { text: 'hi', tag: null, note: null } },
      { source: 'internal' },
    );
    expect(result).toMatchObject({ ok: true });
    expect(seen()).toEqual([
      { line: 'POST /notes', trace: undefined, body: { text: 'hi', note: null } },
    ]);
  });

  it('still refuses a null for a required body property, before any request', async () => {
    const add = await mountedTool(notesConnection(), 'notes__addNote');
    const result = await runTool(add, { body: { text: null } }, { source: 'internal' });
    expect(result).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['body', 'text'] }] },
    });
    expect(seen()).toEqual([]);
  });
});
