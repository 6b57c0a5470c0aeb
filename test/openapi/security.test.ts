/**
 * Where the run's token goes on the wire request: `placeCredential`, one row per placement, and
 * a cookie token's `;`, refused typed before any I/O (CR, LF and NUL are refused by the
 * credentials step: `test/machines/credentials.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import { placeCredential } from '../../src/openapi/security.js';
import type { CredentialPlacement, OpenApiRequest } from '../../src/openapi/types.js';

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
