/**
 * The pure policy of `openApiCall`, one table per rule: which answers carry no body and what a
 * 2xx body decodes to.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeResponseBody,
  hasNoBody,
} from '../../../src/machines/open-api-call/open-api-call.policy.js';
import type { OpenApiMethod } from '../../../src/openapi/types.js';

describe('hasNoBody', () => {
  it.each([
    ['HEAD', 200, true],
    ['HEAD', 204, true],
    ['GET', 204, true],
    ['DELETE', 204, true],
    ['POST', 205, true],
    ['GET', 200, false],
    ['POST', 201, false],
    ['PUT', 202, false],
    ['DELETE', 200, false],
    ['GET', 206, false],
  ] as const)('%s answered %i -> %s', (method: OpenApiMethod, status, expected) => {
    expect(hasNoBody(method, status)).toBe(expected);
  });
});

describe('decodeResponseBody', () => {
  const NOT_JSON = {
    kind: 'malformed',
    violation: 'answered with a JSON content type but a body that is not JSON',
  };

  it.each([
    [
      'a JSON object',
      200,
      'application/json',
      '{"id":1}',
      { kind: 'decoded', status: 200, value: { id: 1 } },
    ],
    [
      'a JSON array, +json',
      200,
      'application/problem+json',
      '[1,2]',
      { kind: 'decoded', status: 200, value: [1, 2] },
    ],
    [
      'a JSON string with a charset',
      201,
      'application/json; charset=utf-8',
      '"ok"',
      { kind: 'decoded', status: 201, value: 'ok' },
    ],
    ['JSON null', 200, 'application/json', 'null', { kind: 'decoded', status: 200, value: null }],
    [
      'an empty JSON body',
      200,
      'application/json',
      '',
      { kind: 'decoded', status: 200, value: null },
    ],
    [
      'a blank JSON body',
      202,
      'application/json',
      ' \n\t',
      { kind: 'decoded', status: 202, value: null },
    ],
    ['text', 200, 'text/plain', 'hello', { kind: 'decoded', status: 200, value: 'hello' }],
    [
      'JSON-looking text/json is text',
      200,
      'text/json',
      '{"id":1}',
      { kind: 'decoded', status: 200, value: '{"id":1}' },
    ],
    [
      'no content type is text',
      200,
      null,
      '{"id":1}',
      { kind: 'decoded', status: 200, value: '{"id":1}' },
    ],
    ['empty text', 200, 'text/plain', '', { kind: 'decoded', status: 200, value: '' }],
    ['malformed JSON', 200, 'application/json', '{"id":', NOT_JSON],
    ['HTML under a JSON type', 200, 'application/json', '<html></html>', NOT_JSON],
    ['malformed +json', 200, 'application/problem+json', 'nope', NOT_JSON],
  ] as const)('%s', (_label, status, contentType, text, expected) => {
    expect(decodeResponseBody(status, contentType, text)).toEqual(expected);
  });
});
