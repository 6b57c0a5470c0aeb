/**
 * Media types, one table per rule: the essence of a `Content-Type`, which types are JSON and which
 * are an SSE stream.
 */
import { describe, expect, it } from 'vitest';
import {
  isEventStream,
  isJsonMediaType,
  mediaTypeEssence,
} from '../../../src/wire/read/media-type.js';

describe('isJsonMediaType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON ; charset=UTF-8', true],
    ['  application/json  ', true],
    ['application/problem+json', true],
    ['application/problem+json; charset=utf-8', true],
    ['application/vnd.api+json', true],
    ['application/merge-patch+json', true],
    // Only `application/json` and `+json` suffixes: `text/json` is decoded as text.
    ['text/json', false],
    ['application/x-json', false],
    ['application/jsonl', false],
    ['application/json-seq', false],
    ['application/+json', false],
    ['text/plain', false],
    ['text/html; charset=utf-8', false],
    ['application/xml', false],
    ['', false],
    [null, false],
  ])('%j -> %s', (contentType, expected) => {
    expect(isJsonMediaType(contentType)).toBe(expected);
  });
});

describe('isEventStream', () => {
  it.each([
    ['text/event-stream', true],
    ['text/event-stream; charset=utf-8', true],
    ['Text/Event-Stream', true],
    ['application/json', false],
    ['text/event-stream-ish', false],
    ['', false],
    [null, false],
  ])('%j -> %s', (contentType, expected) => {
    expect(isEventStream(contentType)).toBe(expected);
  });
});

describe('mediaTypeEssence', () => {
  it.each([
    ['Image/PNG; charset=binary', 'image/png'],
    ['  text/plain  ', 'text/plain'],
    ['application/problem+json;x=1', 'application/problem+json'],
    ['not a type', null],
    ['text/', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j -> %j', (contentType, expected) => {
    expect(mediaTypeEssence(contentType)).toBe(expected);
  });
});
