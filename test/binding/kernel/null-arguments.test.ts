/**
 * `null` for an optional argument is "not provided" when its schema refuses `null` (decision
 * 0036): which schemas accept `null`, which arguments a plan drops, and that the caller's
 * arguments are never changed in place.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptsNull,
  nullArgumentPlan,
  withoutNullArguments,
} from '../../../src/binding/kernel/null-arguments.js';

describe('acceptsNull', () => {
  it.each([
    ['type "null"', { type: 'null' }],
    ['a type list with "null"', { type: ['string', 'null'] }],
    ['OpenAPI 3.0 nullable', { type: 'string', nullable: true }],
    ['anyOf with a null branch', { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    ['oneOf with a null branch', { oneOf: [{ type: 'integer' }, { type: 'null' }] }],
    ['allOf of branches that all take null', { allOf: [{ type: ['string', 'null'] }, {}] }],
    ['an enum listing null', { enum: ['a', null] }],
    ['const null', { const: null }],
    ['the empty schema', {}],
    ['the true schema', true],
    ['a schema of annotations only', { description: 'anything' }],
    ['a $ref to a nullable definition', { $ref: '#/$defs/maybe' }],
    ['a $ref that resolves nowhere (in doubt)', { $ref: '#/$defs/missing' }],
    ['a remote $ref (in doubt)', { $ref: 'https://example.com/s.json' }],
    ['not, which is not read (in doubt)', { not: { type: 'null' } }],
  ])('is true for %s', (_label, schema) => {
    const root = { $defs: { maybe: { type: ['boolean', 'null'] }, never: { type: 'boolean' } } };
    expect(acceptsNull(schema, root)).toBe(true);
  });

  it.each([
    ['type "boolean"', { type: 'boolean' }],
    ['a type list without "null"', { type: ['string', 'integer'] }],
    ['nullable: false', { type: 'string', nullable: false }],
    ['anyOf without a null branch', { anyOf: [{ type: 'string' }, { type: 'integer' }] }],
    ['oneOf without a null branch', { oneOf: [{ type: 'string' }, { enum: ['a'] }] }],
    ['allOf with one branch refusing null', { allOf: [{}, { type: 'string' }] }],
    ['an enum without null', { enum: ['a', 'b'] }],
    ['a const that is not null', { const: 0 }],
    ['the false schema', false],
    ['a $ref to a definition refusing null', { $ref: '#/$defs/never' }],
    ['a $ref beside a type refusing null', { $ref: '#/$defs/maybe', type: 'boolean' }],
    ['a chain of $refs ending in a refusal', { $ref: '#/$defs/alias' }],
  ])('is false for %s', (_label, schema) => {
    const root = {
      $defs: {
        maybe: { type: ['boolean', 'null'] },
        never: { type: 'boolean' },
        alias: { $ref: '#/$defs/never' },
      },
    };
    expect(acceptsNull(schema, root)).toBe(false);
  });

  it('ends on a $ref cycle, in doubt', () => {
    const root = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } };
    expect(acceptsNull({ $ref: '#/$defs/a' }, root)).toBe(true);
  });
});

/** The plan as plain data: the dropped names and the nested plans, sorted. */
function described(plan: ReturnType<typeof nullArgumentPlan>): unknown {
  if (plan === undefined) return undefined;
  return {
    absent: [...plan.absent].sort(),
    nested: Object.fromEntries([...plan.nested].map(([name, inner]) => [name, described(inner)])),
  };
}

const TOOL = {
  type: 'object',
  properties: {
    region: { type: 'string' },
    verbose: { type: 'boolean' },
    note: { type: ['string', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    anything: {},
    limit: { $ref: '#/definitions/count' },
  },
  required: ['region'],
  definitions: { count: { type: 'integer' } },
};

describe('nullArgumentPlan', () => {
  it('names the optional properties whose schema refuses null, never a required one', () => {
    expect(described(nullArgumentPlan(TOOL))).toEqual({
      absent: ['limit', 'tags', 'verbose'],
      nested: {},
    });
  });

  it('reads a named object argument one level in (an OpenAPI body), and no deeper', () => {
    const schema = {
      type: 'object',
      properties: {
        q: { type: 'string' },
        body: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            tag: { type: 'string' },
            note: { type: 'string', nullable: true },
            owner: { type: 'object', properties: { id: { type: 'integer' } } },
          },
          required: ['name'],
        },
      },
      required: ['body'],
    };
    expect(described(nullArgumentPlan(schema, ['body']))).toEqual({
      absent: ['q'],
      nested: { body: { absent: ['owner', 'tag'], nested: {} } },
    });
    expect(described(nullArgumentPlan(schema))).toEqual({ absent: ['q'], nested: {} });
  });

  it('follows a local $ref at the root and at a nested object argument', () => {
    const schema = {
      $ref: '#/$defs/input',
      $defs: {
        input: { type: 'object', properties: { body: { $ref: '#/$defs/body' } } },
        body: { type: 'object', properties: { tag: { type: 'string' } } },
      },
    };
    expect(described(nullArgumentPlan(schema, ['body']))).toEqual({
      absent: ['body'],
      nested: { body: { absent: ['tag'], nested: {} } },
    });
  });

  it.each([
    ['an absent schema', undefined],
    ['a schema without properties', { type: 'object' }],
    ['properties that all take null', { properties: { a: { type: ['string', 'null'] } } }],
    ['required properties only', { properties: { a: { type: 'string' } }, required: ['a'] }],
  ])('is undefined for %s: nothing is ever dropped', (_label, schema) => {
    expect(nullArgumentPlan(schema, ['body'])).toBeUndefined();
  });
});

describe('withoutNullArguments', () => {
  const plan = nullArgumentPlan(TOOL);

  it('drops a null only where the plan reads it as absent', () => {
    const args = {
      region: null,
      verbose: null,
      note: null,
      tags: null,
      anything: null,
      limit: null,
    };
    expect(withoutNullArguments(args, plan)).toEqual({ region: null, note: null, anything: null });
  });

  it('keeps every value that is not null, falsy ones included', () => {
    const args = { region: 'eu', verbose: false, limit: 0, tags: [] };
    expect(withoutNullArguments(args, plan)).toBe(args);
  });

  it('never changes the caller arguments in place', () => {
    const args = { region: 'eu', verbose: null };
    const cleaned = withoutNullArguments(args, plan);
    expect(cleaned).toEqual({ region: 'eu' });
    expect(args).toEqual({ region: 'eu', verbose: null });
  });

  it('cleans a nested object argument, and drops the argument itself when it is null', () => {
    const nested = nullArgumentPlan(
      {
        type: 'object',
        properties: {
          body: { type: 'object', properties: { tag: { type: 'string' } } },
        },
      },
      ['body'],
    );
    expect(withoutNullArguments({ body: { tag: null, other: null } }, nested)).toEqual({
      body: { other: null },
    });
    expect(withoutNullArguments({ body: null }, nested)).toEqual({});
    const untouched = { body: { tag: 'a' } };
    expect(withoutNullArguments(untouched, nested)).toBe(untouched);
  });

  it('never changes the caller arguments in place when only a nested argument drops a null', () => {
    const nested = nullArgumentPlan(
      {
        type: 'object',
        properties: { body: { type: 'object', properties: { tag: { type: 'string' } } } },
      },
      ['body'],
    );
    const body = { tag: null, name: 'a' };
    const args = { id: 7, body };
    expect(withoutNullArguments(args, nested)).toEqual({ id: 7, body: { name: 'a' } });
    expect(args).toEqual({ id: 7, body: { tag: null, name: 'a' } });
    expect(args.body).toBe(body);
  });

  it.each([
    ['no plan', { verbose: null }, undefined],
    ['a value that is not an object', 'text', plan],
    ['an array', [null], plan],
  ])('returns the value itself for %s', (_label, value, given) => {
    expect(withoutNullArguments(value, given)).toBe(value);
  });
});

describe('a $ref with a lone %', () => {
  it('is read as written, never thrown: the plan still drops the null the target refuses', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/50%' } },
      $defs: { '50%': { type: 'string' } },
    };
    const plan = nullArgumentPlan(schema);
    expect(withoutNullArguments({ a: null }, plan)).toEqual({});
  });
});
