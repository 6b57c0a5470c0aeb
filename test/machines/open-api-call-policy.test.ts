/**
 * The pure policy of `openApiCall`, one table per rule: which media types are JSON, which answers
 * carry no body, what a 2xx body decodes to, and where the token is placed.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTROL_CHARACTERS,
  decodeResponseBody,
  hasNoBody,
  isJsonMediaType,
  placeCredential,
} from '../../src/machines/open-api-call.policy.js';
import type {
  CredentialPlacement,
  OpenApiMethod,
  OpenApiRequest,
} from '../../src/machines/open-api-call.types.js';

describe('isJsonMediaType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON ; charset=UTF-8', true],
    ['  application/json  ', true],
    ['application/problem+json', true],
    ['application/problem+json; charset=utf-8', true],
    ['application/vnd.api+json', true],
    ['application/merge-patch+json', true],
    // Only `application/json` and `+json` suffixes: `text/json` is decoded as text.
    ['text/json', false],
    ['application/x-json', false],
    ['application/jsonl', false],
    ['application/json-seq', false],
    ['application/+json', false],
    ['text/plain', false],
    ['text/html; charset=utf-8', false],
    ['application/xml', false],
    ['', false],
    [null, false],
  ])('%j -> %s', (contentType, expected) => {
    expect(isJsonMediaType(contentType)).toBe(expected);
  });
});

describe('hasNoBody', () => {
  it.each([
    ['HEAD', 200, true],
    ['HEAD', 204, true],
    ['GET', 204, true],
    ['DELETE', 204, true],
    ['POST', 205, true],
    ['GET', 200, false],
    ['POST', 201, false],
    ['PUT', 202, false],
    ['DELETE', 200, false],
    ['GET', 206, false],
  ] as const)('%s answered %i -> %s', (method: OpenApiMethod, status, expected) => {
    expect(hasNoBody(method, status)).toBe(expected);
  });
});

describe('decodeResponseBody', () => {
  const NOT_JSON = {
    kind: 'malformed',
    violation: 'answered with a JSON content type but a body that is not JSON',
  };

  it.each([
    [
      'a JSON object',
      200,
      'application/json',
      '{"id":1}',
      { kind: 'decoded', status: 200, value: { id: 1 } },
    ],
    [
      'a JSON array, +json',
      200,
      'application/problem+json',
      '[1,2]',
      { kind: 'decoded', status: 200, value: [1, 2] },
    ],
    [
      'a JSON string with a charset',
      201,
      'application/json; charset=utf-8',
      '"ok"',
      { kind: 'decoded', status: 201, value: 'ok' },
    ],
    ['JSON null', 200, 'application/json', 'null', { kind: 'decoded', status: 200, value: null }],
    [
      'an empty JSON body',
      200,
      'application/json',
      '',
      { kind: 'decoded', status: 200, value: null },
    ],
    [
      'a blank JSON body',
      202,
      'application/json',
      ' \n\t',
      { kind: 'decoded', status: 202, value: null },
    ],
    ['text', 200, 'text/plain', 'hello', { kind: 'decoded', status: 200, value: 'hello' }],
    [
      'JSON-looking text/json is text',
      200,
      'text/json',
      '{"id":1}',
      { kind: 'decoded', status: 200, value: '{"id":1}' },
    ],
    [
      'no content type is text',
      200,
      null,
      '{"id":1}',
      { kind: 'decoded', status: 200, value: '{"id":1}' },
    ],
    ['empty text', 200, 'text/plain', '', { kind: 'decoded', status: 200, value: '' }],
    ['malformed JSON', 200, 'application/json', '{"id":', NOT_JSON],
    ['HTML under a JSON type', 200, 'application/json', '<html></html>', NOT_JSON],
    ['malformed +json', 200, 'application/problem+json', 'nope', NOT_JSON],
  ] as const)('%s', (_label, status, contentType, text, expected) => {
    expect(decodeResponseBody(status, contentType, text)).toEqual(expected);
  });
});

const SIGNAL = new AbortController().signal;

function request(
  credential: CredentialPlacement,
  extra: Partial<Omit<OpenApiRequest, 'credential'>> = {},
): OpenApiRequest {
  return {
    method: 'GET',
    url: 'https://api.example.com/pets?limit=5',
    headers: { accept: 'application/json' },
    cookies: [],
    credential,
    ...extra,
  };
}

describe('placeCredential', () => {
  it('puts a bearer token in the authorization header, replacing a same-named header', () => {
    const wire = placeCredential(
      request(
        { kind: 'authorization', scheme: 'Bearer' },
        { headers: { accept: 'application/json', authorization: 'Bearer forged' } },
      ),
      'tok-1',
      SIGNAL,
    );
    expect(wire.headers).toEqual({ accept: 'application/json', authorization: 'Bearer tok-1' });
    expect(wire.url.href).toBe('https://api.example.com/pets?limit=5');
    expect(wire.method).toBe('GET');
    expect(wire.signal).toBe(SIGNAL);
    expect('body' in wire).toBe(false);
  });

  it('encodes a basic token `user:pass` as base64', () => {
    const wire = placeCredential(
      request({ kind: 'authorization', scheme: 'Basic' }),
      'user:pass',
      SIGNAL,
    );
    expect(wire.headers.authorization).toBe('Basic dXNlcjpwYXNz');
    expect(Buffer.from('dXNlcjpwYXNz', 'base64').toString('utf8')).toBe('user:pass');
  });

  it('puts an apiKey header last, overriding a same-named header parameter (names lowercased)', () => {
    const wire = placeCredential(
      request(
        { kind: 'header', name: 'X-API-Key' },
        { headers: { accept: 'application/json', 'x-api-key': 'from-arguments' } },
      ),
      'tok-1',
      SIGNAL,
    );
    expect(wire.headers).toEqual({ accept: 'application/json', 'x-api-key': 'tok-1' });
  });

  it('puts an apiKey query parameter last, replacing a same-named query parameter', () => {
    const wire = placeCredential(
      request(
        { kind: 'query', name: 'api_key' },
        { url: 'https://api.example.com/pets?api_key=from-arguments&limit=5' },
      ),
      'tok-1',
      SIGNAL,
    );
    expect(wire.url.searchParams.getAll('api_key')).toEqual(['tok-1']);
    expect(wire.url.href).toBe('https://api.example.com/pets?api_key=tok-1&limit=5');
    expect(wire.headers).toEqual({ accept: 'application/json' });
  });

  it('puts an apiKey cookie last, replacing a same-named cookie and keeping the others', () => {
    const wire = placeCredential(
      request(
        { kind: 'cookie', name: 'sid' },
        { cookies: ['theme=dark', 'sid=from-arguments', 'sidebar=open'] },
      ),
      'tok-1',
      SIGNAL,
    );
    expect(wire.headers.cookie).toBe('theme=dark; sidebar=open; sid=tok-1');
  });

  it('refuses a cookie token with ";", which would add a cookie, without echoing it', () => {
    const placing = () =>
      placeCredential(request({ kind: 'cookie', name: 'sid' }), 'tok; admin=1', SIGNAL);
    expect(placing).toThrow(
      new TypeError('A connection token placed in a cookie must not contain ";"'),
    );
  });

  it('sends the cookie parameters as they are when no token is placed', () => {
    const wire = placeCredential(
      request({ kind: 'cookie', name: 'sid' }, { cookies: ['theme=dark'] }),
      undefined,
      SIGNAL,
    );
    expect(wire.headers).toEqual({ accept: 'application/json', cookie: 'theme=dark' });
  });

  it.each([
    ['authorization', { kind: 'authorization', scheme: 'Bearer' }],
    ['header', { kind: 'header', name: 'x-api-key' }],
    ['query', { kind: 'query', name: 'api_key' }],
    ['cookie', { kind: 'cookie', name: 'sid' }],
  ] as const)(
    'places nothing for an anonymous run (%s placement, no token)',
    (_label, placement) => {
      const wire = placeCredential(request(placement), undefined, SIGNAL);
      expect(wire.headers).toEqual({ accept: 'application/json' });
      expect(wire.url.href).toBe('https://api.example.com/pets?limit=5');
    },
  );

  it('ignores the token for a `none` placement, even one that would be refused elsewhere', () => {
    for (const token of ['tok-1', 'bad\r\ntoken']) {
      const wire = placeCredential(request({ kind: 'none' }), token, SIGNAL);
      expect(wire.headers).toEqual({ accept: 'application/json' });
      expect(wire.url.href).toBe('https://api.example.com/pets?limit=5');
    }
  });

  it('keeps the body and the method of the request', () => {
    const wire = placeCredential(
      request({ kind: 'none' }, { method: 'POST', body: '{"name":"rex"}' }),
      undefined,
      SIGNAL,
    );
    expect({ method: wire.method, body: wire.body }).toEqual({
      method: 'POST',
      body: '{"name":"rex"}',
    });
  });

  const PLACEMENTS: readonly CredentialPlacement[] = [
    { kind: 'authorization', scheme: 'Bearer' },
    { kind: 'authorization', scheme: 'Basic' },
    { kind: 'header', name: 'x-api-key' },
    { kind: 'query', name: 'api_key' },
    { kind: 'cookie', name: 'sid' },
  ];
  const BAD_TOKENS = ['secret-\r-1', 'secret-\n-2', 'secret-\r\nx-injected: 1', 'secret-\0-4'];

  it.each(
    PLACEMENTS.flatMap((placement) =>
      BAD_TOKENS.map((token) => [placement.kind, placement, token] as const),
    ),
  )(
    'refuses a token with CR, LF or NUL (%s) with a TypeError that does not contain it',
    (_kind, placement, token) => {
      expect(CONTROL_CHARACTERS.test(token)).toBe(true);
      let thrown: unknown;
      try {
        placeCredential(request(placement), token, SIGNAL);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      const message = (thrown as TypeError).message;
      expect(message).toBe('A connection token must not contain CR, LF or NUL');
      expect(message).not.toContain('secret');
      expect(JSON.stringify(thrown)).not.toContain('secret');
    },
  );

  it('does not change the request it was given', () => {
    const original = request(
      { kind: 'cookie', name: 'sid' },
      { cookies: ['sid=old'], headers: { accept: 'application/json' } },
    );
    const copy = structuredClone(original);
    placeCredential(original, 'tok-1', SIGNAL);
    expect(original).toEqual(copy);
  });
});
