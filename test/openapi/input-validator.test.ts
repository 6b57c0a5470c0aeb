import { describe, expect, it } from 'vitest';
import { lazyInputValidator } from '../../src/openapi/input-validator.js';

const schema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
  required: ['id'],
  additionalProperties: false,
};

function issuesOf(result: ReturnType<ReturnType<typeof lazyInputValidator>['safeParse']>) {
  return result.success ? [] : result.error.issues.map(({ message, path }) => ({ message, path }));
}

describe('lazyInputValidator', () => {
  it('passes a valid value through unchanged', () => {
    expect(lazyInputValidator(schema).safeParse({ id: 1, name: 'rex' })).toEqual({
      success: true,
      data: { id: 1, name: 'rex' },
    });
  });

  it('names each unknown property at its own path, and a wrong type at its path', () => {
    const result = lazyInputValidator(schema).safeParse({ id: 'one', colour: 'red', size: 2 });
    expect(issuesOf(result).map((issue) => issue.path)).toEqual([['id'], ['colour'], ['size']]);
    expect(issuesOf(result).slice(1)).toEqual([
      { message: 'Unknown property "colour"', path: ['colour'] },
      { message: 'Unknown property "size"', path: ['size'] },
    ]);
  });

  it('still checks required and unknown properties when zod cannot convert the schema', () => {
    const unconvertible = {
      type: 'object',
      properties: { id: { $ref: '#/components/schemas/Missing' }, tag: { type: 'string' } },
      required: ['id'],
    };
    const validator = lazyInputValidator(unconvertible);
    expect(issuesOf(validator.safeParse({ tag: 'a', extra: true }))).toEqual([
      { message: 'Missing required property "id"', path: ['id'] },
      { message: 'Unknown property "extra"', path: ['extra'] },
    ]);
    expect(validator.safeParse({ id: 'anything', tag: 'a' }).success).toBe(true);
  });

  it('with no properties or required list, accepts an empty value and refuses any key', () => {
    const validator = lazyInputValidator({ type: 'object', properties: { a: { type: 'wat' } } });
    expect(validator.safeParse({}).success).toBe(true);
    expect(issuesOf(lazyInputValidator({ type: 'wat' }).safeParse({ a: 1 }))).toEqual([
      { message: 'Unknown property "a"', path: ['a'] },
    ]);
  });
});
