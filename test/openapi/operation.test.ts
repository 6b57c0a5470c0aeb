import { describe, expect, it } from 'vitest';
import {
  type CompiledOperation,
  compileOperation,
  OperationRefusal,
  RefExpander,
} from '../../src/openapi/index.js';

const schemes = {
  key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
  cookieKey: { type: 'apiKey', in: 'cookie', name: 'sid' },
  basic: { type: 'http', scheme: 'Basic' },
  bearer: { type: 'http', scheme: 'bearer' },
  oauth: { type: 'oauth2', flows: {} },
  oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com' },
  hmac: { type: 'http', scheme: 'payone-hmac-sha256' },
  mtls: { type: 'mutualTLS' },
};

function compile(
  operation: Record<string, unknown>,
  options: { path?: string; pathItem?: Record<string, unknown>; security?: unknown } = {},
): CompiledOperation {
  const document = { openapi: '3.0.3', components: { securitySchemes: schemes } };
  return compileOperation(
    (operation.method as 'GET' | undefined) ?? 'GET',
    options.path ?? '/items',
    options.pathItem ?? {},
    operation,
    { expander: new RefExpander(document), security: options.security, securitySchemes: schemes },
  );
}

function refusal(run: () => unknown): [string, string] | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof OperationRefusal) return [error.reason, error.message];
    throw error;
  }
  return undefined;
}

const query = (extra: Record<string, unknown> = {}) => ({
  name: 'q',
  in: 'query',
  schema: { type: 'string' },
  ...extra,
});

describe('compileOperation: parameters', () => {
  it('builds one flat input object: parameters by name, path ones required, plus body', () => {
    const compiled = compile(
      {
        method: 'POST',
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: true,
            description: 'At most',
            schema: { type: 'integer' },
          },
          { name: 'X-Trace', in: 'header' },
        ],
        requestBody: {
          content: { 'application/json; charset=utf-8': { schema: { type: 'object' } } },
        },
      },
      {
        path: '/items/{id}',
        pathItem: { parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }] },
      },
    );
    expect(compiled.inputSchema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        limit: { type: 'integer', description: 'At most' },
        'X-Trace': { type: 'string' },
        body: { type: 'object' },
      },
      required: ['id', 'limit'],
      additionalProperties: false,
    });
    expect(compiled.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['limit', 'query', true],
      ['X-Trace', 'header', false],
    ]);
    expect(compiled.body).toEqual({ required: false });
  });

  it('keeps every parameter of one location, in the order written', () => {
    const compiled = compile({
      parameters: [query(), { name: 'page', in: 'query' }, { name: 'per_page', in: 'query' }],
    });
    expect(compiled.parameters.map((p) => [p.name, p.in])).toEqual([
      ['q', 'query'],
      ['page', 'query'],
      ['per_page', 'query'],
    ]);
  });

  it('matches each path variable to a path parameter of its own name', () => {
    const path = (name: string, where = 'path') => ({ name, in: where, required: true });
    expect(
      compile(
        { parameters: [path('owner'), path('repo')] },
        { path: '/repos/{owner}/{repo}' },
      ).parameters.map((p) => p.name),
    ).toEqual(['owner', 'repo']);
    // One path parameter does not stand for every variable; a query one of the name stands for none.
    expect(
      refusal(() => compile({ parameters: [path('owner')] }, { path: '/repos/{owner}/{repo}' })),
    ).toEqual(['invalid-operation', 'has a path variable "repo" with no path parameter']);
    expect(
      refusal(() => compile({ parameters: [path('id', 'query')] }, { path: '/items/{id}' })),
    ).toEqual(['invalid-operation', 'has a path variable "id" with no path parameter']);
  });

  it('checks a parameter shared by reference once per document, and one with siblings each time', () => {
    const document = {
      openapi: '3.1.0',
      components: {
        parameters: { Page: { name: 'page', in: 'query', schema: { type: 'integer' } } },
      },
    };
    const expander = new RefExpander(document);
    const resolved: unknown[] = [];
    const resolveObject = expander.resolveObject.bind(expander);
    expander.resolveObject = (node) => {
      resolved.push(node);
      return resolveObject(node);
    };
    const context = { expander, security: undefined, securitySchemes: schemes };
    const bare = { $ref: '#/components/parameters/Page' };
    const described = { $ref: '#/components/parameters/Page', description: 'which page' };
    for (const path of ['/a', '/b', '/c']) {
      compileOperation('GET', path, {}, { parameters: [{ ...bare }] }, context);
    }
    expect(resolved).toEqual([bare]);
    for (const path of ['/d', '/e']) {
      compileOperation('GET', path, {}, { parameters: [described] }, context);
    }
    expect(resolved).toEqual([bare, described, described]);
  });

  it('lets an operation parameter override the path item one of the same location and name', () => {
    const compiled = compile(
      { parameters: [query({ description: 'mine' })] },
      { pathItem: { parameters: [query({ description: 'item' })] } },
    );
    expect(compiled.inputSchema.properties).toEqual({ q: { type: 'string', description: 'mine' } });
  });

  it('ignores Authorization, Content-Type and Accept header parameters', () => {
    const compiled = compile({
      parameters: ['Authorization', 'content-type', 'ACCEPT'].map((name) => ({
        name,
        in: 'header',
      })),
    });
    expect(compiled.parameters).toEqual([]);
  });

  it('accepts an explicit default style (and any explode) on a scalar', () => {
    expect(() =>
      compile({
        parameters: [
          query({ style: 'form', explode: false }),
          { name: 'h', in: 'header', style: 'simple', explode: true },
        ],
      }),
    ).not.toThrow();
  });

  it('refuses structured serialization', () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        query({ schema: { type: 'array', items: { type: 'string' } } }),
        'has a parameter "q" that is not a scalar',
      ],
      [query({ schema: { type: 'object' } }), 'has a parameter "q" that is not a scalar'],
      [
        query({ schema: { oneOf: [{ type: 'string' }, { type: 'array' }] } }),
        'has a parameter "q" that is not a scalar',
      ],
      [query({ style: 'deepObject' }), 'serializes parameter "q" with style "deepObject"'],
      [query({ style: 'pipeDelimited' }), 'serializes parameter "q" with style "pipeDelimited"'],
      [query({ allowReserved: true }), 'sends parameter "q" with reserved characters unescaped'],
      [
        { name: 'q', in: 'query', content: { 'application/json': {} } },
        'serializes parameter "q" with a media type',
      ],
    ];
    for (const [parameter, message] of cases) {
      expect(refusal(() => compile({ parameters: [parameter] }))).toEqual([
        'structured-parameter',
        message,
      ]);
    }
  });

  it('refuses invalid operations with their reason', () => {
    const cases: [Record<string, unknown>, { path?: string }, string][] = [
      [
        { parameters: [{ name: 'body', in: 'query' }] },
        {},
        'has a parameter named "body", which the JSON body uses',
      ],
      [
        { parameters: [query(), { name: 'q', in: 'header' }] },
        {},
        'uses the parameter name "q" in two locations',
      ],
      [{ parameters: [{ in: 'query' }] }, {}, 'has a parameter without a valid name and location'],
      [{ parameters: { q: query() } }, {}, 'has parameters that are not a list'],
      [
        { parameters: [{ name: 'x', in: 'body' }] },
        {},
        'has a parameter without a valid name and location',
      ],
      [{}, { path: '/items/{id}' }, 'has a path variable "id" with no path parameter'],
      [
        { parameters: [{ name: 'id', in: 'path' }] },
        {},
        'declares a path parameter "id" its path does not use',
      ],
      [
        { parameters: [{ name: 'bad name', in: 'header' }] },
        {},
        'has a header parameter "bad name" that is not a valid name',
      ],
      [{ requestBody: { content: {} }, method: 'POST' }, {}, 'has a request body without content'],
      [{ requestBody: { content: { 'application/json': {} } } }, {}, 'has a request body on GET'],
    ];
    for (const [operation, options, message] of cases) {
      expect(refusal(() => compile(operation, options))).toEqual(['invalid-operation', message]);
    }
  });

  it('refuses a body that is not application/json, and mounts one that also offers JSON', () => {
    expect(
      refusal(() =>
        compile({ method: 'POST', requestBody: { content: { 'application/octet-stream': {} } } }),
      ),
    ).toEqual(['non-json-body', 'has a request body that is not application/json']);
    expect(
      compile({
        method: 'POST',
        requestBody: {
          required: true,
          content: { 'text/plain': {}, 'application/json': { schema: { type: 'string' } } },
        },
      }).inputSchema,
    ).toMatchObject({ properties: { body: { type: 'string' } }, required: ['body'] });
  });

  it('refuses an operation or path item server with variables, and keeps a plain one', () => {
    expect(refusal(() => compile({ servers: [{ url: 'https://{region}.example.com' }] }))).toEqual([
      'server-variables',
      'has its own server "https://{region}.example.com" with variables',
    ]);
    expect(
      compile({}, { pathItem: { servers: [{ url: 'https://uploads.example.com' }] } }).server,
    ).toBe('https://uploads.example.com');
  });
});

describe('compileOperation: security', () => {
  const placementOf = (security: unknown, documentSecurity?: unknown) =>
    compile(security === undefined ? {} : { security }, { security: documentSecurity }).credential;

  it('places each supported scheme', () => {
    expect(placementOf([{ key: [] }])).toEqual({ kind: 'header', name: 'X-Api-Key' });
    expect(placementOf([{ queryKey: [] }])).toEqual({ kind: 'query', name: 'api_key' });
    expect(placementOf([{ cookieKey: [] }])).toEqual({ kind: 'cookie', name: 'sid' });
    expect(placementOf([{ basic: [] }])).toEqual({ kind: 'authorization', scheme: 'Basic' });
    expect(placementOf([{ bearer: [] }])).toEqual({ kind: 'authorization', scheme: 'Bearer' });
    expect(placementOf([{ oauth: ['read'] }])).toEqual({ kind: 'authorization', scheme: 'Bearer' });
    expect(placementOf([{ oidc: [] }])).toEqual({ kind: 'authorization', scheme: 'Bearer' });
  });

  it('takes the first supported alternative, the document default, and {} as anonymous', () => {
    expect(placementOf([{ hmac: [] }, { bearer: [] }, { key: [] }])).toEqual({
      kind: 'authorization',
      scheme: 'Bearer',
    });
    expect(placementOf(undefined, [{ key: [] }])).toEqual({ kind: 'header', name: 'X-Api-Key' });
    expect(placementOf([{}], [{ key: [] }])).toEqual({ kind: 'none' });
    expect(placementOf([], [{ key: [] }])).toEqual({ kind: 'none' });
    expect(placementOf(undefined)).toEqual({ kind: 'none' });
  });

  it('refuses combined-only and unknown-only security', () => {
    expect(refusal(() => placementOf([{ key: [], bearer: [] }]))).toEqual([
      'combined-security',
      'requires several security schemes at once',
    ]);
    expect(refusal(() => placementOf([{ hmac: [] }, { mtls: [] }, { missing: [] }]))).toEqual([
      'unknown-security',
      'offers no security scheme this library can apply',
    ]);
  });
});
