import { describe, expect, it } from 'vitest';
import { downloadGuards } from '../../../src/machines/download/download.guards.js';

describe('downloadGuards.hasUrl', () => {
  it.each([
    ['https://example.com/a.png', true],
    ['', false],
    [null, false],
    [undefined, false],
    [42, false],
  ])('%j -> %s', (url, expected) => {
    expect(downloadGuards.hasUrl(undefined, { url })).toBe(expected);
  });
});

describe('downloadGuards.isErrorStatus', () => {
  it.each([
    [200, false],
    [204, false],
    [299, false],
    [199, true],
    [304, true],
    [404, true],
    [500, true],
  ])('%i -> %s', (status, expected) => {
    expect(downloadGuards.isErrorStatus(undefined, { status })).toBe(expected);
  });
});

describe('downloadGuards.isDeclaredTooLarge', () => {
  it.each([
    [null, 10, false],
    [10, 10, false],
    [11, 10, true],
    [0, 0, false],
  ])('declared %j with cap %i -> %s', (declaredBytes, maxBytes, expected) => {
    expect(downloadGuards.isDeclaredTooLarge(undefined, { declaredBytes, maxBytes })).toBe(
      expected,
    );
  });
});
