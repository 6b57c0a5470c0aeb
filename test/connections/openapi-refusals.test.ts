/**
 * The subset at mount: each refusal reason on one operation, reported through `onSkippedTool`
 * while its siblings mount; a 3.1 document; a cycle only in responses; a document with nothing
 * mountable; document-level server variables; and 2,000 operations sharing deep components.
 */
import { describe, expect, it } from 'vitest';
import {
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';

async function mount(spec: Record<string, unknown>, baseUrl?: string) {
  const skipped: SkippedTool[] = [];
  const tools = await mountConnections(
    [
      defineOpenApiConnection({
        name: 'svc',
        spec,
        ...(baseUrl === undefined ? {} : { baseUrl }),
      }),
    ],
    { onSkippedTool: (entry) => skipped.push(entry) },
  );
  return { names: tools.map((tool) => tool.name), skipped, tools };
}

const ok = { operationId: 'fine', responses: {} };

function everyReasonDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'refusals', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: {
      '/fine': { get: ok },
      '/external': {
        post: {
          operationId: 'externalRef',
          requestBody: {
            content: { 'application/json': { schema: { $ref: 'shared.json#/Pet' } } },
          },
        },
      },
      '/recursive': {
        post: {
          operationId: 'recursiveRef',
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } },
          },
        },
      },
      '/regional': {
        get: { operationId: 'serverVariables', servers: [{ url: 'https://{region}.example.com' }] },
      },
      '/tags': {
        get: {
          operationId: 'structuredParameter',
          parameters: [
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          ],
        },
      },
      '/upload': {
        post: {
          operationId: 'nonJsonBody',
          requestBody: { content: { 'multipart/form-data': {} } },
        },
      },
      '/combined': {
        get: { operationId: 'combinedSecurity', security: [{ key: [], bearer: [] }] },
      },
      '/signed': { get: { operationId: 'unknownSecurity', security: [{ hmac: [] }] } },
      '/options': { options: { operationId: 'unsupportedMethod' } },
      '/collide': {
        get: {
          operationId: 'invalidOperation',
          parameters: [
            { name: 'id', in: 'query' },
            { name: 'id', in: 'header' },
          ],
        },
      },
    },
    components: {
      schemas: {
        Tree: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
        },
      },
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
        hmac: { type: 'http', scheme: 'hmac-sha256' },
      },
    },
  };
}

describe('OpenAPI refusals at mount', () => {
  it('reports each reason for its operation and mounts the sibling', async () => {
    const { names, skipped } = await mount(everyReasonDocument());
    expect(names).toEqual(['svc__fine']);
    expect(skipped.map((entry) => [entry.tool, entry.reason])).toEqual([
      ['externalRef', 'external-ref'],
      ['recursiveRef', 'recursive-ref'],
      ['serverVariables', 'server-variables'],
      ['structuredParameter', 'structured-parameter'],
      ['nonJsonBody', 'non-json-body'],
      ['combinedSecurity', 'combined-security'],
      ['unknownSecurity', 'unknown-security'],
      ['unsupportedMethod', 'unsupported-method'],
      ['invalidOperation', 'invalid-operation'],
    ]);
    expect(skipped[0]).toEqual({
      connection: 'svc',
      tool: 'externalRef',
      reason: 'external-ref',
      message: 'POST /external references "shared.json#/Pet" outside the document',
    });
  });

  it('mounts an operation whose only cycle is in its responses', async () => {
    const { names, skipped } = await mount({
      openapi: '3.0.3',
      servers: [{ url: 'https://api.example.com' }],
      paths: {
        '/tree': {
          get: {
            operationId: 'getTree',
            responses: {
              '200': {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Tree: { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' } } },
        },
      },
    });
    expect([names, skipped]).toEqual([['svc__getTree'], []]);
  });

  it('mounts zero tools from a document with nothing mountable, and says why', async () => {
    const { names, skipped } = await mount({
      openapi: '3.1.0',
      servers: [{ url: 'https://api.example.com' }],
      paths: { '/x': { trace: {} } },
    });
    expect(names).toEqual([]);
    expect(skipped).toEqual([
      {
        connection: 'svc',
        tool: 'TRACE_/x',
        reason: 'unsupported-method',
        message: 'TRACE /x uses TRACE, which is not in the supported subset',
      },
    ]);
  });

  it('refuses every operation under a templated document server unless baseUrl is given', async () => {
    const spec = {
      openapi: '3.0.3',
      servers: [
        { url: '{protocol}://{hostname}/api/v3', variables: { protocol: { default: 'http' } } },
      ],
      paths: { '/a': { get: { operationId: 'a' } }, '/b': { get: { operationId: 'b' } } },
    };
    const without = await mount(spec);
    expect(without.names).toEqual([]);
    expect(without.skipped.map((entry) => [entry.tool, entry.reason, entry.message])).toEqual([
      [
        'a',
        'server-variables',
        'GET /a its server "{protocol}://{hostname}/api/v3" has variables; give baseUrl',
      ],
      [
        'b',
        'server-variables',
        'GET /b its server "{protocol}://{hostname}/api/v3" has variables; give baseUrl',
      ],
    ]);
    const withBase = await mount(spec, 'https://ghe.example.com/api/v3');
    expect([withBase.names, withBase.skipped]).toEqual([['svc__a', 'svc__b'], []]);
  });

  it('mounts 2,000 operations sharing deep component refs', async () => {
    const schemas: Record<string, unknown> = {
      Leaf: { type: 'object', properties: { v: { type: 'string' } } },
    };
    for (let level = 1; level <= 6; level += 1) {
      schemas[`Level${level}`] = {
        type: 'object',
        properties: {
          left: { $ref: `#/components/schemas/${level === 1 ? 'Leaf' : `Level${level - 1}`}` },
          right: { $ref: `#/components/schemas/${level === 1 ? 'Leaf' : `Level${level - 1}`}` },
        },
      };
    }
    const paths: Record<string, unknown> = {};
    for (let index = 0; index < 1_000; index += 1) {
      const body = {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Level6' } } },
      };
      paths[`/things${index}/{id}`] = {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        get: { operationId: `getThing${index}` },
        post: { operationId: `postThing${index}`, requestBody: body },
      };
    }
    const { names, skipped, tools } = await mount({
      openapi: '3.0.3',
      servers: [{ url: 'https://api.example.com' }],
      paths,
      components: {
        schemas,
        parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string' } } },
      },
    });
    expect(skipped).toEqual([]);
    expect(names).toHaveLength(2_000);
    expect(new Set(names).size).toBe(2_000);
    expect(describeCatalog(tools).totals.tools).toBe(2_000);
  });

  it('checks a shared parameter once and still judges each operation that uses it', async () => {
    const { names, skipped, tools } = await mount({
      openapi: '3.1.0',
      servers: [{ url: 'https://api.example.com' }],
      paths: {
        '/a/{owner}': {
          get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/Owner' }] },
        },
        '/b/{owner}': {
          get: {
            operationId: 'b',
            parameters: [{ $ref: '#/components/parameters/Owner', description: 'who owns b' }],
          },
        },
        // The same reference where its path has no such variable: this operation alone is refused.
        '/c': {
          get: { operationId: 'c', parameters: [{ $ref: '#/components/parameters/Owner' }] },
        },
        '/d': {
          get: { operationId: 'd', parameters: [{ $ref: '#/components/parameters/Filter' }] },
        },
        '/e': {
          get: { operationId: 'e', parameters: [{ $ref: '#/components/parameters/Filter' }] },
        },
        '/f': {
          get: {
            operationId: 'f',
            parameters: [{ $ref: '#/components/parameters/Owner' }, { name: 'owner', in: 'query' }],
          },
        },
      },
      components: {
        parameters: {
          Owner: { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
          Filter: { name: 'filter', in: 'query', schema: { type: 'object' } },
        },
      },
    });
    expect(names).toEqual(['svc__a', 'svc__b']);
    expect(skipped.map(({ tool, reason, message }) => [tool, reason, message])).toEqual([
      ['c', 'invalid-operation', 'GET /c declares a path parameter "owner" its path does not use'],
      ['d', 'structured-parameter', 'GET /d has a parameter "filter" that is not a scalar'],
      ['e', 'structured-parameter', 'GET /e has a parameter "filter" that is not a scalar'],
      ['f', 'invalid-operation', 'GET /f uses the parameter name "owner" in two locations'],
    ]);
    const [a, b] = tools;
    expect(a?.inputJsonSchema?.properties).toEqual({ owner: { type: 'string' } });
    // A reference with a sibling (3.1) is the sibling's: not the shared, checked one.
    expect(b?.inputJsonSchema?.properties).toEqual({
      owner: { type: 'string', description: 'who owns b' },
    });
  });

  it("makes an operation's zod input on its first read, once, and it checks as the schema says", async () => {
    const { tools } = await mount({
      openapi: '3.0.3',
      servers: [{ url: 'https://api.example.com' }],
      paths: {
        '/pets/{id}': {
          get: {
            operationId: 'getPet',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
              { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
            ],
          },
        },
      },
    });
    const [tool] = tools;
    if (tool === undefined) throw new Error('not mounted');
    const descriptor = Object.getOwnPropertyDescriptor(tool, 'input');
    expect(descriptor?.get).toBeTypeOf('function');
    expect(descriptor?.enumerable).toBe(true);
    const input = tool.input;
    expect(tool.input).toBe(input);
    expect(input.safeParse({ id: 7, verbose: true }).success).toBe(true);
    const refused = input.safeParse({ id: 'seven', extra: 1 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path)).toEqual([['id'], ['extra']]);
    // A copy (a spread, as a host may make) carries the made object.
    expect({ ...tool }.input).toBe(input);
  });
});
