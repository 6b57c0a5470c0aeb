import { describe, expect, it } from 'vitest';
import { createSseFrameMeter } from '../../../src/wire/read/sse-frame-meter.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds `text` in chunks of `size` and returns the global index of the overflow, or -1. */
function overflowAt(text: string, max: number, size: number): number {
  const meter = createSseFrameMeter(max);
  const bytes = encode(text);
  for (let offset = 0; offset < bytes.length; offset += size) {
    const index = meter.measure(bytes.subarray(offset, offset + size));
    if (index >= 0) return offset + index;
  }
  return -1;
}

describe.each([1, 3, 4096])('createSseFrameMeter fed in chunks of %i bytes', (size) => {
  it.each([
    ['an LF frame of exactly the ceiling', 'data: abc\n\n', 11, -1],
    ['an LF frame one byte over the ceiling', 'data: abc\n\n', 10, 10],
    ['a CRLF frame of exactly the ceiling', 'data: abc\r\n\r\n', 13, -1],
    ['a CRLF frame one byte over the ceiling', 'data: abc\r\n\r\n', 12, 12],
    ['a CR frame of exactly the ceiling', 'data: abc\r\r', 11, -1],
    ['two LF frames each within the ceiling', 'data: abc\n\ndata: def\n\n', 11, -1],
    ['two CRLF frames each within the ceiling', 'data: abc\r\n\r\ndata: def\r\n\r\n', 13, -1],
    ['two CR frames each within the ceiling', 'data: abc\r\rdata: def\r\r', 11, -1],
    ['mixed terminators within the ceiling', 'data: abc\r\n\ndata: def\n\r\n', 12, -1],
    ['comment lines without a blank line accumulating', ':ping\n:ping\n:ping\n', 12, 12],
    ['comment frames each within the ceiling', ':ping\n\n:ping\n\n:ping\n\n', 7, -1],
    ['a partial frame growing past the ceiling', `data: ${'x'.repeat(40)}`, 32, 32],
    ['multi-line data counted as one frame', 'data: a\ndata: b\ndata: c\n\n', 20, 20],
  ])('%s', (_label, text, max, expected) => {
    expect(overflowAt(text, max, size)).toBe(expected);
  });
});

describe('createSseFrameMeter on random streams', () => {
  // A small linear congruential generator keeps the cases reproducible.
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }

  it('finds the same overflow whatever the chunking (the fast path agrees with the byte walk)', () => {
    const next = random(42);
    const alphabet = ['a', ':', '\r', '\n', '\n', '\r\n'];
    const mismatches: string[] = [];
    for (let sample = 0; sample < 400; sample++) {
      const text = Array.from(
        { length: 20 + Math.floor(next() * 200) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join('');
      const max = 3 + Math.floor(next() * 40);
      const byteByByte = overflowAt(text, max, 1);
      for (const size of [2, 7, 64, 4096]) {
        const chunked = overflowAt(text, max, size);
        if (chunked !== byteByByte) {
          mismatches.push(
            `${JSON.stringify(text)} max ${max} size ${size}: ${chunked} vs ${byteByByte}`,
          );
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('starts the fast path only at a frame end: long frames, chunks that fit the ceiling', () => {
    // Frames of tens of bytes and a ceiling of hundreds, so most chunks fit the allowance and the
    // walk starts after the terminator the fast path found; a wrong start shows as another overflow.
    const next = random(7);
    const pieces = ['data: abcdefgh', 'x', 'yz', '\n', '\r\n', '\n\n', '\r\n\r\n', ':c\n'];
    const weights = [6, 10, 6, 3, 2, 2, 2, 1];
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const piece = (): string => {
      let pick = next() * total;
      for (const [index, weight] of weights.entries()) {
        pick -= weight;
        if (pick < 0) return pieces[index] as string;
      }
      return pieces[0] as string;
    };
    const mismatches: string[] = [];
    let overflows = 0;
    for (let sample = 0; sample < 300; sample++) {
      const text = Array.from({ length: 50 + Math.floor(next() * 400) }, piece).join('');
      const max = 40 + Math.floor(next() * 200);
      const byteByByte = overflowAt(text, max, 1);
      if (byteByByte >= 0) overflows++;
      for (const size of [16, 64, 4096]) {
        const chunked = overflowAt(text, max, size);
        if (chunked !== byteByByte) mismatches.push(`sample ${sample} max ${max} size ${size}`);
      }
    }
    expect(mismatches).toEqual([]);
    // 96 of the 300 seeded samples overflow: both outcomes are compared.
    expect(overflows).toBe(96);
  });
});
