/**
 * The `WWW-Authenticate` parser: RFC 9110 challenge syntax as real servers send it (MCP's
 * `resource_metadata`/`scope`, RFC 6750's `error`), several challenges in one value, and garbage,
 * which yields no challenge and never a throw.
 */
import { describe, expect, it } from 'vitest';
import {
  type AuthChallenge,
  challengeOfResponse,
  MAX_WWW_AUTHENTICATE_CHARS,
  parseWwwAuthenticate,
} from '../../../src/wire/core/www-authenticate.js';

const METADATA = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';

const PARSED: readonly (readonly [string, string, AuthChallenge])[] = [
  [
    'the MCP 401 shape: resource_metadata and scope',
    `Bearer resource_metadata="${METADATA}", scope="files:read files:write"`,
    { scheme: 'bearer', resourceMetadata: METADATA, scope: 'files:read files:write' },
  ],
  [
    'the MCP 403 step-up shape',
    `Bearer error="insufficient_scope", scope="files:write", resource_metadata="${METADATA}", error_description="Additional file write permission required"`,
    {
      scheme: 'bearer',
      error: 'insufficient_scope',
      scope: 'files:write',
      resourceMetadata: METADATA,
      errorDescription: 'Additional file write permission required',
    },
  ],
  [
    'RFC 6750 §3 example with realm and token values',
    'Bearer realm="example", error=invalid_token, error_description="The access token expired"',
    {
      scheme: 'bearer',
      realm: 'example',
      error: 'invalid_token',
      errorDescription: 'The access token expired',
    },
  ],
  ['a bare scheme', 'Bearer', { scheme: 'bearer' }],
  [
    'commas and the other challenge syntax inside a quoted string',
    'Bearer scope="a, b", realm="x, Basic realm=y"',
    { scheme: 'bearer', scope: 'a, b', realm: 'x, Basic realm=y' },
  ],
  [
    'backslash escapes in a quoted string',
    'Bearer realm="say \\"hi\\" \\\\ bye", error_description="a\\bc"',
    { scheme: 'bearer', realm: 'say "hi" \\ bye', errorDescription: 'abc' },
  ],
  [
    'case-insensitive scheme and parameter names',
    'BEARER Realm="r", SCOPE="s", Resource_Metadata="m"',
    { scheme: 'bearer', realm: 'r', scope: 's', resourceMetadata: 'm' },
  ],
  [
    'whitespace around "=" (BWS) and around commas',
    'Bearer  realm = "r" ,\tscope=\t"s"  ',
    { scheme: 'bearer', realm: 'r', scope: 's' },
  ],
  [
    'the Bearer challenge chosen after another one',
    'Basic realm="basic-realm", Bearer realm="bearer-realm", scope="x"',
    { scheme: 'bearer', realm: 'bearer-realm', scope: 'x' },
  ],
  [
    'the Bearer challenge chosen after a token68 one',
    'Negotiate YIIB9gYGKwYBBQUCoIIB6jCCAeagMDAu==, Bearer scope="x"',
    { scheme: 'bearer', scope: 'x' },
  ],
  [
    'the first challenge when none is Bearer',
    'Basic realm="first", DPoP algs="ES256", realm="second"',
    { scheme: 'basic', realm: 'first' },
  ],
  ['a token68 challenge alone', 'Basic dXNlcjpwYXNz', { scheme: 'basic' }],
  [
    'a token68 with padding before another challenge',
    'Custom abc==, Other realm="o"',
    { scheme: 'custom' },
  ],
  [
    'empty list elements, which recipients ignore',
    ', , Bearer realm="r",, scope="s" ,',
    { scheme: 'bearer', realm: 'r', scope: 's' },
  ],
  [
    'unknown parameters, which are ignored',
    'Bearer foo="bar", realm="r", constructor="c", __proto__="p"',
    { scheme: 'bearer', realm: 'r' },
  ],
  ['an empty quoted value', 'Bearer scope=""', { scheme: 'bearer', scope: '' }],
  [
    'a repeated header joined with ", " by the HTTP client',
    'Basic realm="b", Bearer resource_metadata="m"',
    { scheme: 'bearer', resourceMetadata: 'm' },
  ],
];

const GARBAGE: readonly (readonly [string, string | null | undefined])[] = [
  ['no header', null],
  ['undefined', undefined],
  ['an empty value', ''],
  ['only separators', ' , ,'],
  ['an unterminated quoted string', 'Bearer realm="never ends'],
  ['an escape at the very end', 'Bearer realm="x\\'],
  ['a parameter with no value', 'Bearer realm='],
  ['a parameter value that is neither token nor quoted', 'Bearer realm=@x'],
  ['text after a quoted value', 'Bearer realm="a"b'],
  ['a scheme glued to a quote', 'Bearer"realm"'],
  ['no scheme before a parameter', '="x"'],
  ['a control character inside a quoted string', 'Bearer realm="a\u0001b"'],
  ['a newline inside a quoted string', 'Bearer realm="a\nb"'],
  ['a parameter named twice', 'Bearer scope="a", scope="b"'],
  ['a token68 followed by a parameter', 'Basic abc== realm="x"'],
  ['a lone equals sign', 'Bearer ='],
  ['binary noise', '\u0000\u00ff\u0007'],
  ['JSON', '{"resource_metadata":"x"}'],
];

describe('parseWwwAuthenticate', () => {
  it.each(PARSED)('reads %s', (_label, header, expected) => {
    expect(parseWwwAuthenticate(header)).toEqual(expected);
  });

  it.each(GARBAGE)('yields no challenge for %s, without throwing', (_label, header) => {
    expect(parseWwwAuthenticate(header)).toBeUndefined();
  });

  it('reads a value of exactly 8 KiB and refuses one character more', () => {
    expect(MAX_WWW_AUTHENTICATE_CHARS).toBe(8192);
    const prefix = 'Bearer realm="';
    const fill = (length: number) => `${prefix}${'r'.repeat(length - prefix.length - 1)}"`;
    const fits = fill(MAX_WWW_AUTHENTICATE_CHARS);
    expect(fits).toHaveLength(8192);
    expect(parseWwwAuthenticate(fits)?.realm).toHaveLength(8192 - prefix.length - 1);
    expect(parseWwwAuthenticate(fill(MAX_WWW_AUTHENTICATE_CHARS + 1))).toBeUndefined();
  });

  it('survives many separators and parameters in linear time', () => {
    const many = `Bearer ${Array.from({ length: 400 }, (_, index) => `p${index}="v"`).join(', ')}`;
    expect(many.length).toBeLessThan(MAX_WWW_AUTHENTICATE_CHARS);
    expect(parseWwwAuthenticate(many)).toEqual({ scheme: 'bearer' });
    expect(parseWwwAuthenticate(','.repeat(MAX_WWW_AUTHENTICATE_CHARS))).toBeUndefined();
  });
});

describe('challengeOfResponse', () => {
  const headers = (value: string | null) => ({
    get: (name: string) => (name === 'www-authenticate' ? value : null),
  });

  it.each([401, 403])('reads the challenge of a %i', (status) => {
    expect(challengeOfResponse({ status, headers: headers('Bearer scope="s"') })).toEqual({
      scheme: 'bearer',
      scope: 's',
    });
  });

  it.each([400, 404, 407, 500])('ignores the header on a %i', (status) => {
    expect(challengeOfResponse({ status, headers: headers('Bearer scope="s"') })).toBeUndefined();
  });

  it('yields nothing for a 401 without the header', () => {
    expect(challengeOfResponse({ status: 401, headers: headers(null) })).toBeUndefined();
  });
});
