/**
 * The wire's pure readers under generated input: the SSE frame reader against a whole-text
 * reference reading over random chunk boundaries and CR/LF/CRLF mixes; the host fence over
 * generated URL strings (never inside unless its parsed host is a fenced one); the
 * `WWW-Authenticate` parser (never throws, bounded, only the schemes it was given).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSseMessages, type SseBudget } from '../../src/wire/sse-reader.js';
import { createHostFence, isInsideFence } from '../../src/wire/url-fence.js';
import {
  MAX_WWW_AUTHENTICATE_CHARS,
  parseWwwAuthenticate,
} from '../../src/wire/www-authenticate.js';
import { fuzzParameters } from './fuzz-config.js';

/** The SSE specification's reading of a whole text: the events with data, in order. */
function referenceEvents(text: string): { event: string; data: string }[] {
  const lines = text.split(/\r\n|\r|\n/);
  // The text after the last line terminator is an unfinished line: never dispatched.
  lines.pop();
  const events: { event: string; data: string }[] = [];
  let data: string[] = [];
  let event = '';
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) events.push({ event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      continue;
    }
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }
  return events;
}

const NEWLINE = fc.constantFrom('\n', '\r', '\r\n');
const VALUE = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', 'é', '😀', 'x', '{', '"') });
const LINE = fc.oneof(
  VALUE.map((value) => `data: ${value}`),
  VALUE.map((value) => `data:${value}`),
  fc.constantFrom('data', 'data:'),
  fc.stringMatching(/^[a-z]{1,8}$/).map((name) => `event: ${name}`),
  VALUE.map((value) => `: ${value}`),
  VALUE.map((value) => `id: ${value.replaceAll('\0', '')}`),
  fc.constantFrom('retry: 10', 'unknown: field', ''),
);
/** A stream: lines joined by mixed terminators, maybe ending mid-line. */
const STREAM = fc
  .tuple(fc.array(fc.tuple(LINE, NEWLINE), { maxLength: 40 }), fc.boolean(), VALUE)
  .map(
    ([lines, unfinished, tail]) =>
      lines.map(([line, nl]) => line + nl).join('') + (unfinished ? `data: ${tail}` : ''),
  )
  .filter((text) => !text.startsWith('\uFEFF'));

function bodyOf(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) chunks.push(bytes.slice(from, point));
    from = Math.max(from, point);
  }
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

const budget = (): SseBudget => ({
  connectionName: 'fuzz',
  operation: 'tools/call',
  phase: 'call',
  maxBytes: 10_000_000,
  maxFrameBytes: 1_000_000,
  signal: new AbortController().signal,
});

describe('the SSE frame reader', () => {
  it('reads what the whole-text reference reads, whatever the chunk boundaries', async () => {
    await fc.assert(
      fc.asyncProperty(STREAM, fc.array(fc.nat(), { maxLength: 12 }), async (text, cuts) => {
        const bytes = new TextEncoder().encode(text);
        const response = {
          status: 200,
          ok: true,
          headers: new Headers(),
          body: bodyOf(bytes, cuts),
        };
        const read: { event: string; data: string }[] = [];
        for await (const message of readSseMessages(response, budget())) {
          read.push({ event: message.event, data: message.data });
        }
        expect(read).toEqual(referenceEvents(text));
      }),
      fuzzParameters(400),
    );
  });
});

describe('the host fence', () => {
  const HOSTS = ['api.example.com', 'api.example.com:8443', '127.0.0.1:3000', '[::1]:8080'];
  const PIECE = fc.constantFrom(
    'http://',
    'https://',
    'ftp://',
    '//',
    'api.example.com',
    'API.EXAMPLE.COM',
    'evil.com',
    '@',
    ':',
    '8443',
    '3000',
    '127.0.0.1',
    '[::1]',
    '/',
    '\\',
    '?',
    '#',
    '%2e',
    '%40',
    'user:pw',
    '.',
    'api.example.com.',
    '\t',
    ' ',
    '0x7f.1',
    '2130706433',
    'xn--',
    'ℂ',
  );
  const URL_TEXT = fc
    .array(PIECE, { minLength: 1, maxLength: 10 })
    .map((pieces) => pieces.join(''));

  it('never lets in a URL whose parsed host is not a fenced host', () => {
    const fence = createHostFence('fuzz', new URL(`http://${HOSTS[0]}`), HOSTS.slice(1));
    fc.assert(
      fc.property(URL_TEXT, (text) => {
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          return;
        }
        if (isInsideFence(url, fence)) {
          expect(fence.hosts.has(url.host.toLowerCase())).toBe(true);
          expect(['http:', 'https:']).toContain(url.protocol);
          expect(url.username + url.password).toBe('');
        }
      }),
      fuzzParameters(5_000),
    );
  });
});

describe('the WWW-Authenticate parser', () => {
  const TOKEN = fc.constantFrom(
    'Bearer',
    'basic',
    'DPoP',
    'realm',
    'scope',
    'error',
    'resource_metadata',
    'x',
  );
  const PIECE = fc.oneof(
    TOKEN,
    fc.constantFrom('=', '"', '\\', ',', ' ', '\t', '==', 'a b', '"unterminated'),
    fc.string({ maxLength: 6 }),
  );
  const HEADER = fc.oneof(
    fc.array(PIECE, { maxLength: 30 }).map((pieces) => pieces.join('')),
    fc
      .nat({ max: 3 })
      .map((n) => `Bearer realm="${'x'.repeat(MAX_WWW_AUTHENTICATE_CHARS - 10 + n * 8)}"`),
  );

  it('never throws, and yields a lowercased token scheme within the bound, or nothing', () => {
    fc.assert(
      fc.property(HEADER, (header) => {
        const challenge = parseWwwAuthenticate(header);
        if (header.length > MAX_WWW_AUTHENTICATE_CHARS) expect(challenge).toBeUndefined();
        if (challenge === undefined) return;
        expect(challenge.scheme).toMatch(/^[!#$%&'*+.^_`|~0-9a-z-]+$/);
        expect(header.toLowerCase()).toContain(challenge.scheme);
        for (const value of Object.values(challenge)) expect(typeof value).toBe('string');
      }),
      fuzzParameters(5_000),
    );
  });
});
