import { describe, expect, it } from 'vitest';
import { declaredBytesOf, downloadTarget } from '../../../src/machines/download/download.policy.js';

describe('download target and declared length, edge cases', () => {
  it('names the file after the last non-empty segment of a URL path ending in a slash', () => {
    expect(downloadTarget({ mediaType: null, urlPath: '/files/cat.png/' }, undefined)).toEqual({
      path: 'cat.png',
      mediaType: 'image/png',
    });
    expect(downloadTarget({ mediaType: null, urlPath: '//' }, undefined)).toEqual({
      path: 'download.bin',
      mediaType: 'application/octet-stream',
    });
  });

  it('reads a Content-Length with surrounding spaces as its number', () => {
    expect(declaredBytesOf(' 12 ')).toBe(12);
  });
});
