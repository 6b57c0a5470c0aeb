import { describe, expect, it } from 'vitest';
import { annotationsForMethod } from '../../src/openapi/annotations.js';

describe('annotationsForMethod', () => {
  it.each([
    ['GET', { readOnlyHint: true, idempotentHint: true, openWorldHint: true }],
    ['HEAD', { readOnlyHint: true, idempotentHint: true, openWorldHint: true }],
    [
      'POST',
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    ],
    [
      'PATCH',
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    ],
    [
      'PUT',
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    ],
    [
      'DELETE',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    ],
  ] as const)('%s -> %j', (method, annotations) => {
    expect(annotationsForMethod(method, undefined)).toStrictEqual(annotations);
  });

  it.each([
    ['  List pets  ', 'List pets'],
    ['', undefined],
    ['   ', undefined],
    [42, undefined],
  ])('takes the summary %j as the title %j', (summary, title) => {
    const annotations = annotationsForMethod('GET', summary);
    expect(annotations.title).toBe(title);
    expect('title' in annotations).toBe(title !== undefined);
  });
});
