import { describe, expect, it } from 'vitest';
import {
  cutJson,
  cutProse,
  formatCount,
  isJsonContainerText,
} from '../../../src/binding/contract/result-cut.js';

describe('isJsonContainerText', () => {
  it.each([
    ['an array', '[1,2]', true],
    ['an object after spaces', '  {"a":1}', true],
    ['a number (JSON, but no records to cut at)', '123', false],
    ['a string literal', '"text"', false],
    ['an unterminated array', '[1,2', false],
    ['prose that opens with a bracket', '[note] the server closed', false],
  ])('says %s is %s', (_label, text, expected) => {
    expect(isJsonContainerText(text)).toBe(expected);
  });
});

describe('cutJson', () => {
  it('keeps whole elements from both ends, 3:1, with the original separators', () => {
    const text = '[10,11,12,13,14,15,16,17,18,19]';
    expect(cutJson(text, 16, 'both')).toEqual({
      pieces: ['[10,11,12,19]'],
      kept: 'elements 1–3 and 10 of the 10 top-level elements (the kept JSON parses)',
    });
  });

  it('reads brackets, commas, colons and escaped quotes inside strings as text', () => {
    const text = '["a],[b", "c\\"]d", {"e": "}:,"}, "f", "g", "h", "i"]';
    const cut = cutJson(text, 24, 'head');
    expect(cut.pieces).toEqual(['["a],[b", "c\\"]d"]']);
    expect(JSON.parse(cut.pieces[0] ?? '')).toEqual(['a],[b', 'c"]d']);
  });

  it('keeps whole members of an object, and only the head when asked', () => {
    const text = '{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}';
    expect(cutJson(text, 24, 'head')).toEqual({
      pieces: ['{"a": 1, "b": 2, "c": 3}'],
      kept: 'members 1–3 of the 5 top-level members (the kept JSON parses)',
    });
  });

  it('keeps only the tail when asked, in its original formatting', () => {
    const text = '[\n  1,\n  2,\n  3,\n  4\n]';
    expect(cutJson(text, 6, 'tail').pieces).toEqual(['[\n  3,\n  4\n]']);
  });

  it('keeps an empty container when no record fits', () => {
    expect(cutJson('[123456789, 123456789]', 4, 'both')).toEqual({
      pieces: ['[]'],
      kept: 'no elements of the 2 top-level elements (the kept JSON parses)',
    });
  });

  it('names the path of the record it cut inside', () => {
    const text = JSON.stringify({ page: 1, data: { users: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } });
    const cut = cutJson(text, 44, 'both');
    expect(JSON.parse(cut.pieces[0] ?? '')).toEqual({
      page: 1,
      data: { users: [1, 2, 3, 4, 10] },
    });
    expect(cut.kept).toBe(
      'elements 1–4 and 10 of the 10 elements of "data" > "users" (the kept JSON parses)',
    );
  });
});

describe('cutJson, a long key on the path', () => {
  it('is shortened to 40 characters in what the marker says', () => {
    const key = 'k'.repeat(100);
    const items = Array.from({ length: 200 }, (_, index) => index + 1);
    const cut = cutJson(JSON.stringify({ [key]: items }), 300, 'both');
    expect(cut.kept).toMatch(
      /^elements 1–\d+ and \d+–200 of the 200 elements of "k{38}… \(the kept JSON parses\)$/,
    );
  });
});

describe('cutProse', () => {
  it('cuts at line ends when a line end lies in the second half of each share', () => {
    const text = 'one\ntwo\nthree\nfour\nfive\nsix\n';
    expect(cutProse(text, 14, 'both')).toEqual({
      pieces: ['one\ntwo\n', 'six\n'],
      kept: 'the first 2 and the last 1 of 6 lines',
    });
  });

  it('cuts at spaces when no line end is near, and counts characters', () => {
    expect(cutProse('alpha beta gamma delta epsilon', 12, 'head')).toEqual({
      pieces: ['alpha beta '],
      kept: 'the first 11 of 30 characters',
    });
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(50);
    const cut = cutProse(text, 11, 'both');
    expect(cut.pieces).toEqual(['😀'.repeat(4), '😀']);
  });
});

describe('formatCount', () => {
  it('prints thousands with separators', () => {
    expect(formatCount(2_131_483)).toBe('2,131,483');
  });
});
