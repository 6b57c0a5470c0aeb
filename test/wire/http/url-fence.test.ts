import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/wire/core/redact.js';
import { ConnectionUrlError } from '../../../src/wire/errors/errors.js';
import {
  assertInsideFence,
  createHostFence,
  isInsideFence,
  parseConnectionUrl,
  resolveEndpointUrl,
} from '../../../src/wire/http/url-fence.js';

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const base = new URL('http://API.Example.test:8080/mcp');
const SCOPE = { connectionName: 'c', operation: 'tools/call', phase: 'call' } as const;
const ENDPOINT_SCOPE = { connectionName: 'c', operation: 'endpoint', phase: 'discovery' } as const;

describe('parseConnectionUrl', () => {
  it.each([
    ['http://127.0.0.1:3000/mcp', 'http://127.0.0.1:3000/mcp'],
    ['https://Example.TEST/mcp?x=1', 'https://example.test/mcp?x=1'],
  ])('accepts %s', (raw, href) => {
    expect(parseConnectionUrl(raw, 'c').href).toBe(href);
  });

  it.each([
    ['an unparseable URL', 'not a url ?token=SECRET'],
    ['a relative URL', '/mcp'],
    ['ftp:', 'ftp://example.test/mcp'],
    ['file:', 'file:///etc/hosts'],
    ['userinfo', 'https://user:SECRET@example.test/mcp'],
    ['a bare username', 'https://user@example.test/mcp'],
  ])('refuses %s with ConnectionUrlError', (_label, raw) => {
    expect(() => parseConnectionUrl(raw, 'c')).toThrow(ConnectionUrlError);
  });

  it('never echoes the raw text of an unparseable URL', () => {
    const error = thrownBy(() => parseConnectionUrl('::bad ?token=SECRET', 'c'));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect((error as Error).message).not.toContain('SECRET');
  });
});

describe('createHostFence', () => {
  it('holds the connection host lowercased, with its port', () => {
    expect([...createHostFence('c', base).hosts]).toEqual(['api.example.test:8080']);
  });

  it.each([
    ['Other.Example.test', 'other.example.test'],
    ['other.example.test:9000', 'other.example.test:9000'],
    ['other.example.test:80', 'other.example.test:80'],
    ['other.example.test:0443', 'other.example.test:443'],
    ['127.0.0.1:4000', '127.0.0.1:4000'],
    ['[::1]:4000', '[::1]:4000'],
    ['  spaced.example.test  ', 'spaced.example.test'],
  ])('normalizes allowHosts entry %j to %j', (entry, host) => {
    expect(createHostFence('c', base, [entry]).hosts.has(host)).toBe(true);
  });

  it.each([
    ['a scheme', 'https://other.example.test'],
    ['a path', 'other.example.test/api'],
    ['userinfo', 'user:pw@other.example.test'],
    ['a query', 'other.example.test?x=1'],
    ['an empty entry', ''],
    ['a bad port', 'other.example.test:99999'],
  ])('refuses an allowHosts entry with %s, naming the entry', (_label, entry) => {
    const attempt = () => createHostFence('c', base, [entry]);
    expect(attempt).toThrow(ConnectionUrlError);
    expect(attempt).toThrow(/allowHosts entry/);
  });

  it('names a refused entry without its userinfo', () => {
    expect(() => createHostFence('c', base, ['user:SECRET@other.example.test'])).toThrow(
      /allowHosts entry "\*\*\*@other\.example\.test"/,
    );
  });
});

describe('isInsideFence', () => {
  const fence = createHostFence('c', base, [
    'Other.example.test',
    'ported.example.test:9443',
    'tls.example.test:443',
    'plain.example.test:80',
  ]);

  it.each([
    ['the connection URL', 'http://api.example.test:8080/mcp', true],
    ['another path on the connection host', 'http://api.example.test:8080/messages?s=1', true],
    ['the connection host in upper case', 'http://API.EXAMPLE.TEST:8080/x', true],
    ['https on the same host and port', 'https://api.example.test:8080/x', true],
    ['the connection host on another port', 'http://api.example.test:8081/mcp', false],
    ['the connection host on its default port', 'http://api.example.test/mcp', false],
    ['an allowed host on its default port', 'https://other.example.test/x', true],
    ['an allowed host on another port', 'https://other.example.test:444/x', false],
    ['an allowed host with its port', 'https://ported.example.test:9443/x', true],
    ['an allowed host without its port', 'https://ported.example.test/x', false],
    ['an allowed host written with 443, over https', 'https://tls.example.test/x', true],
    ['an allowed host written with 443, over http on 443', 'http://tls.example.test:443/x', true],
    ['an allowed host written with 443, over http', 'http://tls.example.test/x', false],
    ['an allowed host written with 80, over http', 'http://plain.example.test/x', true],
    ['an allowed host written with 80, over https', 'https://plain.example.test/x', false],
    ['an allowed host written with 80, over https on 80', 'https://plain.example.test:80/x', true],
    ['a foreign host', 'http://evil.example.test:8080/mcp', false],
    ['a suffix of an allowed host', 'https://xother.example.test/x', false],
    ['userinfo on the connection host', 'http://u:p@api.example.test:8080/mcp', false],
    ['ftp on the connection host', 'ftp://api.example.test:8080/mcp', false],
  ])('%s -> %s', (_label, href, inside) => {
    expect(isInsideFence(new URL(href), fence)).toBe(inside);
  });

  it('assertInsideFence refuses an outside URL with a redacted ConnectionUrlError', () => {
    const error = thrownBy(() =>
      assertInsideFence(new URL('http://evil.example.test/x?token=SECRET'), fence, SCOPE),
    );
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({ connectionName: 'c', operation: 'tools/call', phase: 'call' });
    expect((error as ConnectionUrlError).url).toBe('http://evil.example.test/x');
    expect((error as Error).message).not.toContain('SECRET');
  });

  it('assertInsideFence passes an inside URL', () => {
    expect(() =>
      assertInsideFence(new URL('http://api.example.test:8080/m'), fence, SCOPE),
    ).not.toThrow();
  });
});

describe('resolveEndpointUrl', () => {
  const fence = createHostFence('c', base);

  it.each([
    [
      'a relative path with a query',
      '/messages?sessionId=abc',
      'http://api.example.test:8080/messages?sessionId=abc',
      true,
    ],
    [
      'a path relative to the connection URL',
      'messages',
      'http://api.example.test:8080/messages',
      true,
    ],
    [
      'an absolute URL on the connection host',
      'http://api.example.test:8080/m',
      'http://api.example.test:8080/m',
      true,
    ],
    [
      'an absolute URL on another host',
      'http://evil.example.test:8080/m',
      'http://evil.example.test:8080/m',
      false,
    ],
    [
      'an absolute URL on another port',
      'http://api.example.test:9999/m',
      'http://api.example.test:9999/m',
      false,
    ],
    [
      'a protocol-relative URL to another host',
      '//evil.example.test/m',
      'http://evil.example.test/m',
      false,
    ],
  ])('resolves %s and fences it', (_label, data, href, inside) => {
    const url = resolveEndpointUrl(data, base, ENDPOINT_SCOPE);
    expect(url.href).toBe(href);
    expect(isInsideFence(url, fence)).toBe(inside);
  });

  it.each([
    ['empty data', '   '],
    ['a non-http scheme', 'javascript:alert(1)'],
    ['an unparseable absolute URL', 'http://[bad/m'],
  ])('refuses %s with a ConnectionUrlError of the endpoint step', (_label, data) => {
    const error = thrownBy(() => resolveEndpointUrl(data, base, ENDPOINT_SCOPE));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error).toMatchObject({ operation: 'endpoint', phase: 'discovery' });
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://u:pw@example.test:8443/a/b?token=SECRET#frag', 'https://example.test:8443/a/b'],
    [new URL('http://example.test/?q=1'), 'http://example.test/'],
    ['not a url ?token=SECRET', '[unparseable URL]'],
  ])('redacts %s to %s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
