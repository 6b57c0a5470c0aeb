/**
 * The wire's pure readers under generated input: the SSE frame reader against a whole-text
 * reference reading over random chunk boundaries and CR/LF/CRLF mixes; the host fence over
 * generated URL strings (never inside unless its parsed host is a fenced one); the
 * `WWW-Authenticate` parser (never throws, bounded, only the schemes it was given).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_WWW_AUTHENTICATE_CHARS,
  parseWwwAuthenticate,
} from '../../src/wire/core/www-authenticate.js';
import { createHostFence, isInsideFence } from '../../src/wire/http/url-fence.js';
import { readSseMessages, type SseBudget } from '../../src/wire/read/sse-reader.js';
import { expectedAdmission, FENCE, surfaceKinds, urlNear } from './fence-cases.js';
import { fuzzParameters } from './fuzz-config.js';

/** The least of each case in 5,000 generated ones; the admitted surface forms count admitted URLs. */
const FENCE_FLOORS: Readonly<Record<string, number>> = {
  admitted: 750,
  'refused: scheme': 400,
  'refused: userinfo': 600,
  'refused: host': 400,
  'refused: port': 800,
  'percent-encoded': 250,
  'upper case': 250,
  'other IP notation': 200,
  'default port written': 150,
  'scheme case': 250,
};

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
  it('admits exactly what an oracle of its own admits, whatever the surface form', () => {
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    fc.assert(
      fc.property(
        FENCE.chain((fence) => fc.tuple(fc.constant(fence), urlNear(fence))),
        ([fence, generated]) => {
          const fenceOf = createHostFence('fuzz', new URL(fence.connectionUrl), fence.allowHosts);
          // Every generated URL parses: the cases are built from valid parts.
          const admitted = isInsideFence(new URL(generated.text), fenceOf);
          const verdict = expectedAdmission(generated, fence.entries);
          count(verdict);
          if (verdict === 'admitted') for (const kind of surfaceKinds(generated)) count(kind);
          expect(
            admitted,
            `${generated.text} with fence ${fence.connectionUrl} + [${fence.allowHosts}]`,
          ).toBe(verdict === 'admitted');
        },
      ),
      fuzzParameters(5_000),
    );
    const counts = Object.fromEntries([...tally].sort(([a], [b]) => a.localeCompare(b)));
    console.info(`host fence fuzz: ${JSON.stringify(counts)}`);
    // Floors: a fence that refused everything, or admitted every fenced host whatever its
    // scheme, userinfo or port, fails the property above; these prove each case was reached.
    const below = Object.entries(FENCE_FLOORS)
      .filter(([kind, floor]) => (counts[kind] ?? 0) < floor)
      .map(([kind, floor]) => `${kind}: ${counts[kind] ?? 0} < ${floor}`);
    expect(below).toEqual([]);
  });

  it('treats an allowHosts entry and a URL that name the same port alike', () => {
    const fence = createHostFence('fuzz', new URL('http://example.com/mcp'), [
      'api.example.com:8443',
    ]);
    const admitted = [
      'https://api.example.com:8443/',
      'http://API.example.com:08443/x',
      'http://example.com:80/',
      'https://example.com/',
    ];
    const refused = [
      'https://api.example.com/',
      'http://example.com:8080/',
      'http://u@example.com/',
    ];
    expect(admitted.filter((text) => !isInsideFence(new URL(text), fence))).toEqual([]);
    expect(refused.filter((text) => isInsideFence(new URL(text), fence))).toEqual([]);
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
