/**
 * The spill store and its pages (decision 0044): ids and slots are the store's, the last 32
 * results are kept for an hour, pages are substrings within the budget that concatenate to the
 * payload, and a result that is not kept is `RESULT_NOT_KEPT`.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { estimateTextTokens } from '../../../src/binding/contract/estimate-tokens.js';
import {
  MAX_SPILLED_RESULTS,
  pageEnd,
  pageTrailer,
  resultSpillStoreOf,
  SPILLED_RESULT_TTL_MS,
} from '../../../src/binding/contract/result-spill.js';
import { createFileBoundary } from '../../../src/operations/index.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spill-store-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const LINES = Array.from({ length: 400 }, (_, index) => `row ${index + 1}: ok`).join('\n');

describe('pageEnd', () => {
  it('ends a page within its tokens at a line end in its second half', () => {
    const end = pageEnd(LINES, 0, 100, LINES.length);
    // Sized at 97 % of the page's density, then back to a line end: 19 whole lines, 95 tokens.
    expect(LINES.slice(0, end)).toBe(`${LINES.split('\n').slice(0, 19).join('\n')}\n`);
    expect(estimateTextTokens(LINES.slice(0, end))).toBe(95);
  });

  it('honours a length shorter than the budget', () => {
    expect(pageEnd(LINES, 10, 10_000, 25)).toBe(35);
  });

  it('never splits a surrogate pair and always moves on by one character', () => {
    const emoji = '😀'.repeat(50);
    const end = pageEnd(emoji, 0, 5, emoji.length);
    expect(end % 2).toBe(0);
    expect(pageEnd(emoji, 0, 1, 1)).toBe(1);
    expect(pageEnd('abc', 3, 100, 10)).toBe(3);
  });
});

describe('pageTrailer', () => {
  it.each([
    [
      { text: 'x', offset: 0, nextOffset: 1200, totalChars: 5000 },
      '[Characters 0–1,200 of 5,000 of result r1. Read on with read_result {"id":"r1","offset":1200}.]',
    ],
    [
      { text: 'x', offset: 4000, nextOffset: 5000, totalChars: 5000 },
      '[Characters 4,000–5,000 of 5,000 of result r1. This is the end of the result.]',
    ],
  ])('says where the page sits and how to read on (%j)', (page, trailer) => {
    expect(pageTrailer('r1', page)).toBe(trailer);
  });
});

describe('a spill store', () => {
  it('writes each payload to its slot, and its pages concatenate to it', async () => {
    const store = resultSpillStoreOf(createFileBoundary({ root }));
    const kept = store.keep(LINES, 600);
    expect(kept?.path).toBe('stitchkit-results/00.txt');
    expect(kept?.id).toMatch(/^r[0-9a-f]{16}$/);
    const pages: string[] = [];
    let offset = 0;
    while (offset < LINES.length) {
      const page = await store.page(kept?.id ?? '', offset);
      expect(estimateTextTokens(page.text)).toBeLessThanOrEqual(520);
      pages.push(page.text);
      offset = page.nextOffset;
    }
    expect(pages.join('')).toBe(LINES);
    expect(pages.length).toBe(4);
    expect(await readFile(join(root, 'stitchkit-results', '00.txt'), 'utf8')).toBe(LINES);
  });

  it('is one store per root, and keeps the last 32 results in 32 files', async () => {
    const store = resultSpillStoreOf(createFileBoundary({ root }));
    expect(resultSpillStoreOf(createFileBoundary({ root }))).toBe(store);
    const ids = Array.from(
      { length: MAX_SPILLED_RESULTS + 1 },
      (_, index) => store.keep(`payload ${index}`, 600)?.id ?? '',
    );
    // The first of these took the slot after the previous test's; the last replaced its file.
    await expect(store.page(ids[0] ?? '', 0)).rejects.toMatchObject({ code: 'RESULT_NOT_KEPT' });
    await expect(store.page(ids[MAX_SPILLED_RESULTS] ?? '', 0)).resolves.toMatchObject({
      text: `payload ${MAX_SPILLED_RESULTS}`,
    });
    await expect(store.page(ids[1] ?? '', 0)).resolves.toMatchObject({ text: 'payload 1' });
    expect((await readdir(join(root, 'stitchkit-results'))).length).toBe(MAX_SPILLED_RESULTS);
  });

  it('writes a slot in the order its results were kept, whatever order the writes finish in', async () => {
    const files = new Map<string, string>();
    const pending: Array<() => void> = [];
    const store = resultSpillStoreOf({
      root: '/memory/ordered',
      write: (path, body) =>
        new Promise((resolve) => {
          pending.push(() => {
            files.set(path, new TextDecoder().decode(body));
            resolve({ path, size: body.byteLength });
          });
        }),
      read: async (path) => ({
        stream: new Blob([files.get(path) ?? '']).stream(),
      }),
    });
    const ids = Array.from(
      { length: MAX_SPILLED_RESULTS + 1 },
      (_, index) => store.keep(`payload ${index}`, 600)?.id ?? '',
    );
    // Slot 00's second write waits for its first: 32 writes have started, not 33.
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending.length).toBe(MAX_SPILLED_RESULTS);
    // The started writes finish newest first; the waiting one starts after slot 00's first.
    while (pending.length > 0) {
      for (const finish of pending.splice(0).reverse()) finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(files.get('stitchkit-results/00.txt')).toBe(`payload ${MAX_SPILLED_RESULTS}`);
    await expect(store.page(ids[MAX_SPILLED_RESULTS] ?? '', 0)).resolves.toMatchObject({
      text: `payload ${MAX_SPILLED_RESULTS}`,
    });
    await expect(store.page(ids[0] ?? '', 0)).rejects.toMatchObject({ code: 'RESULT_NOT_KEPT' });
  });

  it('forgets a result after an hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = resultSpillStoreOf(createFileBoundary({ root }));
    const kept = store.keep('short-lived', 600);
    await expect(store.page(kept?.id ?? '', 0)).resolves.toMatchObject({ text: 'short-lived' });
    vi.setSystemTime(Date.now() + SPILLED_RESULT_TTL_MS + 1);
    await expect(store.page(kept?.id ?? '', 0)).rejects.toMatchObject({
      code: 'RESULT_NOT_KEPT',
      status: 404,
      message:
        'No spilled result "' +
        kept?.id +
        '" is kept (the most recent 32 are, for an hour); call the tool again.',
    });
  });

  it('answers RESULT_NOT_KEPT when the write failed, and never rejects unhandled', async () => {
    const store = resultSpillStoreOf({
      root: '/nowhere/failing',
      write: () => Promise.reject(new Error('disk full')),
      read: () => Promise.reject(new Error('unreachable')),
    });
    const kept = store.keep('lost', 600);
    await expect(store.page(kept?.id ?? '', 0)).rejects.toMatchObject({
      code: 'RESULT_NOT_KEPT',
    });
  });
});
