import { describe, expect, it } from 'vitest';
import {
  declaredBytesOf,
  downloadTarget,
  isProgressDue,
  PROGRESS_INTERVAL_MS,
} from '../../../src/machines/download/download.policy.js';

describe('declaredBytesOf', () => {
  it.each([
    ['123', 123],
    [' 7 ', 7],
    [null, null],
    ['', null],
    ['-1', null],
    ['1e3', null],
    ['12, 12', null],
  ])('%j -> %j', (value, expected) => {
    expect(declaredBytesOf(value)).toBe(expected);
  });
});

describe('downloadTarget', () => {
  it.each([
    [
      'the URL base name with the content type extension',
      '/img/cat.png',
      'image/png',
      undefined,
      'cat.png',
      'image/png',
    ],
    [
      'the content type wins over the URL extension',
      '/img/cat.jpeg',
      'image/webp',
      undefined,
      'cat.webp',
      'image/webp',
    ],
    [
      'the URL extension when the type is unknown',
      '/d/report.PDF',
      'application/x-odd',
      undefined,
      'report.pdf',
      'application/x-odd',
    ],
    [
      '.bin when neither gives one',
      '/d/blob',
      null,
      undefined,
      'blob.bin',
      'application/octet-stream',
    ],
    [
      'the name implies the type when none is sent',
      '/d/notes.txt',
      null,
      undefined,
      'notes.txt',
      'text/plain',
    ],
    ['download for an empty base name', '/', 'image/gif', undefined, 'download.gif', 'image/gif'],
    [
      'download for a stem over 60 characters',
      `/${'a'.repeat(61)}.png`,
      'image/png',
      undefined,
      'download.png',
      'image/png',
    ],
    [
      'a stem of exactly 60 characters',
      `/${'a'.repeat(60)}`,
      'image/png',
      undefined,
      `${'a'.repeat(60)}.png`,
      'image/png',
    ],
    [
      'sanitised characters',
      '/x/my%20file%3B%24.png',
      'image/png',
      undefined,
      'my_file__.png',
      'image/png',
    ],
    [
      'no hidden names',
      '/x/..%2F.hidden',
      null,
      undefined,
      'hidden.bin',
      'application/octet-stream',
    ],
    [
      'a requested path kept as is',
      '/img/cat.png',
      'image/png',
      'album/kitty.jpg',
      'album/kitty.jpg',
      'image/png',
    ],
    [
      'a requested path without extension gets one',
      '/img/cat',
      'image/png',
      'album/kitty',
      'album/kitty.png',
      'image/png',
    ],
  ])('%s', (_label, urlPath, mediaType, requested, path, type) => {
    expect(downloadTarget({ urlPath, mediaType }, requested)).toEqual({ path, mediaType: type });
  });
});

describe('isProgressDue', () => {
  it.each([
    [undefined, 0, true],
    [1_000, 1_000 + PROGRESS_INTERVAL_MS - 1, false],
    [1_000, 1_000 + PROGRESS_INTERVAL_MS, true],
  ])('last %j, now %i -> %s', (last, now, expected) => {
    expect(isProgressDue(last, now)).toBe(expected);
  });
});
