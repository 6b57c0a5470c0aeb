/**
 * A gateway (`mountMcp` in front of mounted connection tools) relays what the upstream said:
 * every content block byte for byte, an `isError` result as the upstream wrote it, and the
 * upstream's input schema (2020-12, `$schema`, `$defs`, `format`) unchanged, to a real SDK client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountMcp } from '../../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../../src/connections/index.js';
import { type FaultServer, mcp, mcpHandler, startFaultServer } from '../fixtures/fault-server.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';

const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  description: 'Where and when',
  properties: {
    when: { type: 'string', format: 'date-time', default: '2026-01-01T00:00:00Z' },
    where: { $ref: '#/$defs/place' },
    tags: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
  },
  required: ['where'],
  $defs: { place: { type: 'string', enum: ['lisbon', 'oslo'] } },
};

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]).toString(
  'base64',
);
const WAV = Buffer.from('RIFF\u0000\u0001WAVEfmt ').toString('base64');
const MIXED_CONTENT = [
  { type: 'text', text: 'a picture, a sound, a file and a link' },
  { type: 'image', data: PNG, mimeType: 'image/png' },
  { type: 'audio', data: WAV, mimeType: 'audio/wav' },
  {
    type: 'resource',
    resource: { uri: 'file:///report.csv', mimeType: 'text/csv', text: 'a,b\n1,2\n' },
  },
  { type: 'resource_link', uri: 'https://example.com/r/1', name: 'r1', mimeType: 'text/plain' },
];
const UPSTREAM_ERROR = {
  isError: true,
  content: [{ type: 'text', text: 'the calendar is locked by another editor' }],
  _meta: { 'example.com/trace': 't-42' },
};

let upstream: FaultServer;
let gateway: McpPeer;

beforeAll(async () => {
  const tools = [
    { name: 'media', description: 'Returns mixed content', inputSchema: { type: 'object' } },
    { name: 'book', description: 'Books a slot', inputSchema: SCHEMA_2020_12 },
    { name: 'locked', description: 'Always fails', inputSchema: { type: 'object' } },
  ];
  upstream = await startFaultServer(
    mcpHandler(
      {
        'tools/call': (request) => {
          const id = request.rpc?.id ?? 0;
          const name = (request.rpc?.params as { name?: string } | undefined)?.name;
          if (name === 'locked') return mcp.callResult(id, UPSTREAM_ERROR);
          if (name === 'media') return mcp.callResult(id, { content: MIXED_CONTENT });
          return mcp.callResult(id, { content: [{ type: 'text', text: 'booked' }] });
        },
      },
      { tools },
    ),
  );
  const mounted = await mountConnections([
    defineMcpClientConnection({ name: 'upstream', transport: { url: upstream.url } }),
  ]);
  gateway = await startMcpPeer((server) => mountMcp(server, mounted));
});
afterAll(async () => {
  await gateway.stop();
  await upstream.close();
});

describe('the gateway relays the upstream faithfully', () => {
  it('lists the upstream input schema unchanged (2020-12, $defs, format, default)', async () => {
    const { tools } = await gateway.client.listTools();
    expect(tools.find((tool) => tool.name === 'book')?.inputSchema).toEqual(SCHEMA_2020_12);
  });

  it('relays image, audio, embedded resource, resource link and text byte for byte', async () => {
    const result = await gateway.client.callTool({ name: 'media', arguments: {} });
    expect(result.content).toEqual(MIXED_CONTENT);
    expect(result.isError).toBeUndefined();
  });

  it('relays an upstream isError result as the upstream wrote it, _meta included', async () => {
    const result = await gateway.client.callTool({ name: 'locked', arguments: {} });
    expect(result).toEqual(UPSTREAM_ERROR);
  });

  it('still validates input against the upstream schema before any upstream call', async () => {
    const before = upstream.count((request) => request.rpc?.method === 'tools/call');
    const result = await gateway.client.callTool({ name: 'book', arguments: { where: 'paris' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('VALIDATION_ERROR');
    expect(upstream.count((request) => request.rpc?.method === 'tools/call')).toBe(before);
  });
});
