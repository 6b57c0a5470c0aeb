/**
 * `defineOpenApiConnection` checks every option at definition, with no I/O, and names the
 * connection in each error; an inline document's server rules are applied at mount.
 */
import { describe, expect, it } from 'vitest';
import {
  ConnectionUrlError,
  defineMcpClientConnection,
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
  type OpenApiConnectionConfig,
  type SkippedTool,
} from '../../src/connections/index.js';
import { startMcpPeers } from '../fixtures/mcp-peers.js';

const spec = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths: { '/a': { get: { operationId: 'a' } } },
};

function definitionError(config: Partial<OpenApiConnectionConfig>): unknown {
  try {
    defineOpenApiConnection({ name: 'svc', spec, ...config } as OpenApiConnectionConfig);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('defineOpenApiConnection', () => {
  it('accepts a document object, JSON text, or an http(s) URL', () => {
    expect(defineOpenApiConnection({ name: 'svc', spec }).kind).toBe('openapi');
    expect(defineOpenApiConnection({ name: 'svc', spec: ` ${JSON.stringify(spec)} ` }).kind).toBe(
      'openapi',
    );
    expect(
      defineOpenApiConnection({ name: 'svc', spec: 'https://api.example.com/openapi.json' }).kind,
    ).toBe('openapi');
  });

  it('refuses a bad name, spec, base URL or host with a TypeError naming the connection', () => {
    const cases: [Partial<OpenApiConnectionConfig>, unknown, string][] = [
      [{ name: ' ' }, TypeError, 'OpenAPI connection requires a non-empty name'],
      [
        { spec: '{"openapi": ' },
        TypeError,
        'OpenAPI connection "svc": spec is not valid JSON text',
      ],
      [
        { spec: 'openapi: 3.0.0\npaths: {}' },
        TypeError,
        'OpenAPI connection "svc": spec must be a document object, JSON text, or an http(s) URL (YAML is not supported; JSON is required)',
      ],
      [
        { spec: { swagger: '2.0', paths: {} } },
        TypeError,
        'OpenAPI connection "svc": spec must be an OpenAPI 3.0 or 3.1 document (found Swagger 2.0)',
      ],
      [
        { spec: { openapi: '4.0.0' } },
        TypeError,
        'OpenAPI connection "svc": spec must be an OpenAPI 3.0 or 3.1 document (found OpenAPI 4.0.0)',
      ],
      [
        { spec: { openapi: '3.0.0', paths: [] } },
        TypeError,
        'OpenAPI connection "svc": spec paths must be an object',
      ],
      [
        { spec: 42 as unknown as object },
        TypeError,
        'OpenAPI connection "svc": spec must be a JSON object',
      ],
      [
        { baseUrl: 7 as unknown as string },
        TypeError,
        'OpenAPI connection "svc": baseUrl must be a string',
      ],
      [
        { allowHosts: 'x' as unknown as string[] },
        TypeError,
        'OpenAPI connection "svc": allowHosts must be an array of host[:port] strings',
      ],
      [
        { transports: [] },
        TypeError,
        'OpenAPI connection "svc": transports must list at least one transport',
      ],
      [
        { token: 'secret' as unknown as () => string },
        TypeError,
        'OpenAPI connection "svc": token must be a function',
      ],
    ];
    for (const [config, kind, message] of cases) {
      const error = definitionError(config);
      expect(error).toBeInstanceOf(kind as typeof TypeError);
      expect((error as Error).message).toBe(message);
    }
  });

  it('refuses a security override whose apiKey name could never be sent, as a document scheme is', () => {
    const cases: [OpenApiConnectionConfig['security'], string][] = [
      [
        { type: 'apiKey', in: 'cookie', name: 'a=b; x' },
        'OpenAPI connection "svc": security names an apiKey cookie "a=b; x" that is not a valid name',
      ],
      [
        { type: 'apiKey', in: 'header', name: 'a b' },
        'OpenAPI connection "svc": security names an apiKey header "a b" that is not a valid name',
      ],
    ];
    for (const [security, message] of cases) {
      const error = definitionError({ security });
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(message);
    }
    // A query parameter's name may be anything: it is percent-encoded.
    expect(definitionError({ security: { type: 'apiKey', in: 'query', name: 'a b' } })).toBe(
      undefined,
    );
  });

  it('refuses a URL error with the wire error and limits with a RangeError', () => {
    expect(definitionError({ baseUrl: 'ftp://api.example.com' })).toBeInstanceOf(
      ConnectionUrlError,
    );
    expect(definitionError({ baseUrl: 'https://user:pw@api.example.com' })).toBeInstanceOf(
      ConnectionUrlError,
    );
    expect(
      definitionError({ spec: 'https://user:pw@api.example.com/openapi.json' }),
    ).toBeInstanceOf(ConnectionUrlError);
    expect(definitionError({ allowHosts: ['https://x.example.com/path'] })).toBeInstanceOf(
      ConnectionUrlError,
    );
    expect(definitionError({ timeoutMs: 0 })).toBeInstanceOf(RangeError);
    expect(definitionError({ maxResponseBytes: 1.5 })).toBeInstanceOf(RangeError);
    expect(definitionError({ limits: { call: { timeoutMs: 2 ** 31 } } })).toBeInstanceOf(
      RangeError,
    );
  });

  it('needs baseUrl for an inline document whose server is relative or absent (at mount)', async () => {
    for (const servers of [[{ url: '/v3' }], []]) {
      const connection = defineOpenApiConnection({ name: 'svc', spec: { ...spec, servers } });
      await expect(mountConnections([connection])).rejects.toBeInstanceOf(ConnectionUrlError);
      const withBase = defineOpenApiConnection({
        name: 'svc',
        spec: { ...spec, servers },
        baseUrl: 'https://api.example.com/v3',
      });
      expect((await mountConnections([withBase])).map((tool) => tool.name)).toEqual(['svc__a']);
    }
  });

  it('mounts OpenAPI and MCP connections side by side: one mount, one budget, one catalog', async () => {
    const peers = await startMcpPeers();
    try {
      const mcp = defineMcpClientConnection({
        name: 'peer',
        transport: { url: peers.url('/sessionless-json') },
        tools: { allow: ['echo'] },
      });
      const api = defineOpenApiConnection({
        name: 'api',
        spec: { ...spec, paths: { ...spec.paths, '/b': { options: {} } } },
      });
      const skipped: SkippedTool[] = [];
      const tools = await mountConnections([mcp, api], {
        onSkippedTool: (entry) => skipped.push(entry),
      });
      expect(tools.map((tool) => tool.name)).toEqual(['echo', 'api__a']);
      expect(skipped.map((entry) => [entry.connection, entry.reason])).toEqual([
        ['api', 'unsupported-method'],
      ]);
      expect(
        describeCatalog(tools).connections.map((entry) => [entry.connection, entry.tools]),
      ).toEqual([
        ['peer', 1],
        ['api', 1],
      ]);
      await expect(
        mountConnections([mcp, api], { budget: { maxTools: 1 }, onSkippedTool: () => undefined }),
      ).rejects.toMatchObject({ limit: 1, actual: 2, unit: 'tools' });
    } finally {
      await peers.close();
    }
  });
});
