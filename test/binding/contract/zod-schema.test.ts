import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import {
  isZodObjectSchema,
  parseWithSchema,
  toInputJsonSchema,
} from '../../../src/binding/contract/zod-schema.js';

describe('isZodObjectSchema', () => {
  it.each([
    ['z.object', z.object({ a: z.string() }), true],
    ['z.strictObject', z.strictObject({ a: z.string() }), true],
    ['z.looseObject', z.looseObject({}), true],
    ['zod/mini object', zm.object({ a: zm.string() }), true],
    ['refined z.object', z.object({ a: z.string() }).refine(() => true), true],
    ['z.string', z.string(), false],
    ['z.array of objects', z.array(z.object({})), false],
    ['a raw shape', { a: z.string() }, false],
    ['a lookalike without safeParseAsync', { _zod: { def: { type: 'object' } } }, false],
    ['null', null, false],
  ])('%s -> %s', (_label, value, expected) => {
    expect(isZodObjectSchema(value)).toBe(expected);
  });
});

describe('parseWithSchema', () => {
  it('returns the parsed data, with unknown keys stripped', async () => {
    expect(await parseWithSchema(z.object({ a: z.string() }), { a: 'x', extra: 1 })).toEqual({
      success: true,
      data: { a: 'x' },
    });
  });

  it('flattens issues to path, message and code', async () => {
    const outcome = await parseWithSchema(
      z.object({ items: z.array(z.object({ id: z.string() })) }),
      { items: [{ id: 'a' }, { id: 2 }] },
    );
    expect(outcome.success === false && outcome.issues).toEqual([
      {
        path: ['items', 1, 'id'],
        message: 'Invalid input: expected string, received number',
        code: 'invalid_type',
      },
    ]);
  });
});

describe('toInputJsonSchema', () => {
  const schema = z.object({ q: z.string().describe('query'), n: z.number().default(1) });
  const expected = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { q: { type: 'string', description: 'query' }, n: { type: 'number', default: 1 } },
    required: ['q'],
  };

  it("uses the schema's own Standard JSON Schema converter", () => {
    expect(toInputJsonSchema(schema)).toEqual(expected);
  });

  it('falls back to our converter for a zod 4 copy without Standard JSON Schema', () => {
    const olderCopy = Object.create(schema, { '~standard': { value: { version: 1 } } });
    expect(toInputJsonSchema(olderCopy)).toEqual(expected);
  });
});
