import { describe, expect, it } from 'vitest';
import type { CompiledOperation } from '../../src/openapi/index.js';
import { buildOpenApiRequest, operationBaseUrl } from '../../src/openapi/index.js';

function operation(overrides: Partial<CompiledOperation> = {}): CompiledOperation {
  return {
    method: 'GET',
    path: '/files/{name}',
    parameters: [
      { name: 'name', in: 'path', required: true },
      { name: 'q', in: 'query', required: false },
      { name: 'X-Trace', in: 'header', required: false },
      { name: 'session', in: 'cookie', required: false },
    ],
    body: undefined,
    credential: { kind: 'none' },
    server: undefined,
    inputSchema: { type: 'object' },
    ...overrides,
  };
}

const base = new URL('https://api.example.com/v3/');

function thrown(run: () => unknown): { code: string; message: string } | undefined {
  try {
    run();
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  return undefined;
}

describe('buildOpenApiRequest', () => {
  it('joins the base and the path with one slash and encodes each path value in its segment', () => {
    for (const [value, path] of [
      ['report.pdf', '/v3/files/report.pdf'],
      ['../admin', '/v3/files/..%2Fadmin'],
      ['a/b', '/v3/files/a%2Fb'],
      ['%2F', '/v3/files/%252F'],
      ['?x=1', '/v3/files/%3Fx%3D1'],
      ['#frag', '/v3/files/%23frag'],
      ['%2e%2e', '/v3/files/%252e%252e'],
    ] as const) {
      const request = buildOpenApiRequest(operation(), { name: value }, base);
      const url = new URL(request.url);
      expect([url.pathname, url.search, url.hash]).toEqual([path, '', '']);
    }
  });

  it('refuses empty, "." and ".." path values, which would change the path', () => {
    for (const value of ['', '.', '..']) {
      expect(thrown(() => buildOpenApiRequest(operation(), { name: value }, base))).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Path parameter "name" must not be empty, "." or ".."',
      });
    }
  });

  it('puts query values through URLSearchParams and keeps the base query', () => {
    const request = buildOpenApiRequest(
      operation(),
      { name: 'a', q: 'x&y=z #' },
      new URL('https://api.example.com/v3?api-version=2'),
    );
    const url = new URL(request.url);
    expect([...url.searchParams]).toEqual([
      ['api-version', '2'],
      ['q', 'x&y=z #'],
    ]);
  });

  it('sends header and encoded cookie parameters, and accept: application/json', () => {
    const request = buildOpenApiRequest(
      operation(),
      { name: 'a', 'X-Trace': 't-1', session: 'a b;c' },
      base,
    );
    expect(request.headers).toEqual({ accept: 'application/json', 'x-trace': 't-1' });
    expect(request.cookies).toEqual(['session=a%20b%3Bc']);
  });

  it('refuses CR, LF or NUL in header and cookie values', () => {
    for (const [key, value] of [
      ['X-Trace', 'a\r\nInjected: 1'],
      ['X-Trace', 'a\nb'],
      ['session', 'a\u0000b'],
    ] as const) {
      expect(
        thrown(() => buildOpenApiRequest(operation(), { name: 'a', [key]: value }, base))?.code,
      ).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses non-scalar parameter values', () => {
    expect(
      thrown(() => buildOpenApiRequest(operation(), { name: 'a', q: { x: 1 } }, base)),
    ).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Parameter "q" must be a string, number or boolean',
    });
  });

  it('sends a JSON body only when the operation has one and the call gave it', () => {
    const post = operation({
      method: 'POST',
      path: '/items',
      parameters: [],
      body: { required: false },
    });
    expect(buildOpenApiRequest(post, { body: { a: 1 } }, base)).toMatchObject({
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(buildOpenApiRequest(post, {}, base).body).toBeUndefined();
    expect(
      buildOpenApiRequest(operation({ parameters: [], path: '/x' }), { body: 1 }, base).body,
    ).toBeUndefined();
  });

  it('resolves an operation server against the base', () => {
    const own = operation({ server: 'https://uploads.example.com/u', parameters: [], path: '/x' });
    expect(buildOpenApiRequest(own, {}, operationBaseUrl(own, base)).url).toBe(
      'https://uploads.example.com/u/x',
    );
    const relative = operation({ server: '/beta', parameters: [], path: '/x' });
    expect(buildOpenApiRequest(relative, {}, operationBaseUrl(relative, base)).url).toBe(
      'https://api.example.com/beta/x',
    );
  });
});
