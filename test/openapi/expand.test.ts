import { describe, expect, it } from 'vitest';
import { MAX_EXPANDED_DEPTH, MAX_EXPANDED_NODES, RefExpander } from '../../src/openapi/expand.js';
import { OperationRefusal } from '../../src/openapi/index.js';

function refusalOf(run: () => unknown): { reason: string; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof OperationRefusal) return { reason: error.reason, message: error.message };
    throw error;
  }
  return undefined;
}

const doc = (schemas: Record<string, unknown>, openapi = '3.1.0') => ({
  openapi,
  components: { schemas },
});

describe('RefExpander.expandSchema', () => {
  it('inlines local refs, unescaping JSON-pointer and percent forms', () => {
    const expander = new RefExpander(
      doc({ 'a/b': { type: 'string' }, 'c~d': { type: 'integer' }, 'e f': { type: 'boolean' } }),
    );
    const { schema } = expander.expandSchema({
      type: 'object',
      properties: {
        slash: { $ref: '#/components/schemas/a~1b' },
        tilde: { $ref: '#/components/schemas/c~0d' },
        space: { $ref: '#/components/schemas/e%20f' },
      },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        slash: { type: 'string' },
        tilde: { type: 'integer' },
        space: { type: 'boolean' },
      },
    });
  });

  it('lets keys beside a $ref override the target', () => {
    const expander = new RefExpander(doc({ Name: { type: 'string', description: 'target' } }));
    expect(
      expander.expandSchema({ $ref: '#/components/schemas/Name', description: 'sibling' }).schema,
    ).toEqual({ type: 'string', description: 'sibling' });
  });

  it('shares one expansion of a component between every use', () => {
    const expander = new RefExpander(
      doc({ Pet: { type: 'object', properties: { id: { type: 'integer' } } } }),
    );
    const first = expander.expandSchema({ $ref: '#/components/schemas/Pet' });
    const second = expander.expandSchema({ items: { $ref: '#/components/schemas/Pet' } });
    expect((second.schema as { items: unknown }).items).toBe(first.schema);
  });

  it('leaves a schema with nothing to rewrite as the same object', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' } } };
    expect(new RefExpander(doc({})).expandSchema(schema).schema).toBe(schema);
  });

  it('drops extensions and OpenAPI-only keywords, keeps data keywords as data', () => {
    const expander = new RefExpander(doc({}));
    expect(
      expander.expandSchema({
        type: 'string',
        'x-internal': true,
        xml: { name: 'n' },
        discriminator: { propertyName: 'kind' },
        externalDocs: { url: 'https://example.com' },
        example: { $ref: '#/not/a/ref' },
        enum: ['a', 'b'],
      }).schema,
    ).toEqual({ type: 'string', example: { $ref: '#/not/a/ref' }, enum: ['a', 'b'] });
  });

  it('rewrites OpenAPI 3.0 nullable and boolean exclusive bounds as JSON Schema', () => {
    const expander = new RefExpander(doc({}, '3.0.3'));
    expect(
      expander.expandSchema({
        type: 'object',
        properties: {
          name: { type: 'string', nullable: true },
          kind: { type: 'string', enum: ['a'], nullable: true },
          low: { type: 'integer', minimum: 1, exclusiveMinimum: true },
          high: { type: 'integer', maximum: 9, exclusiveMaximum: false },
        },
      }).schema,
    ).toEqual({
      type: 'object',
      properties: {
        name: { type: ['string', 'null'] },
        kind: { type: ['string', 'null'], enum: ['a', null] },
        low: { type: 'integer', exclusiveMinimum: 1 },
        high: { type: 'integer', maximum: 9 },
      },
    });
  });

  it('keeps nullable as written in a 3.1 document (it is not a 3.1 keyword)', () => {
    const expander = new RefExpander(doc({}));
    expect(expander.expandSchema({ type: 'string', nullable: true }).schema).toEqual({
      type: 'string',
      nullable: true,
    });
  });

  it('refuses external, unresolvable and non-object references with their reasons', () => {
    const expander = new RefExpander(doc({ Text: 'just a string' }));
    expect(refusalOf(() => expander.expandSchema({ $ref: 'other.json#/Pet' }))).toEqual({
      reason: 'external-ref',
      message: 'references "other.json#/Pet" outside the document',
    });
    expect(
      refusalOf(() => expander.expandSchema({ $ref: '#/components/schemas/Missing' })),
    ).toEqual({
      reason: 'invalid-operation',
      message: 'has a reference "#/components/schemas/Missing" that does not resolve',
    });
    expect(refusalOf(() => expander.expandSchema({ $ref: '#/components/schemas/Text' }))).toEqual({
      reason: 'invalid-operation',
      message: 'has a reference "#/components/schemas/Text" that is not an object',
    });
  });

  it('refuses a cycle, and every component that reaches it', () => {
    const expander = new RefExpander(
      doc({
        Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } },
        Holder: { type: 'object', properties: { node: { $ref: '#/components/schemas/Node' } } },
        Fine: { type: 'string' },
      }),
    );
    expect(
      refusalOf(() => expander.expandSchema({ $ref: '#/components/schemas/Holder' }))?.reason,
    ).toBe('recursive-ref');
    expect(
      refusalOf(() => expander.expandSchema({ $ref: '#/components/schemas/Node' }))?.reason,
    ).toBe('recursive-ref');
    expect(expander.expandSchema({ $ref: '#/components/schemas/Fine' }).schema).toEqual({
      type: 'string',
    });
  });

  it('refuses inputs over the node budget without building them (shared components doubling)', () => {
    // Level n holds two uses of level n-1: 2^18 leaves inlined, 18 components computed.
    const schemas: Record<string, unknown> = { L0: { type: 'string' } };
    for (let level = 1; level <= 18; level += 1) {
      schemas[`L${level}`] = {
        type: 'object',
        properties: {
          a: { $ref: `#/components/schemas/L${level - 1}` },
          b: { $ref: `#/components/schemas/L${level - 1}` },
        },
      };
    }
    const expander = new RefExpander(doc(schemas));
    expect(refusalOf(() => expander.expandSchema({ $ref: '#/components/schemas/L18' }))).toEqual({
      reason: 'invalid-operation',
      message: `has inputs that expand to more than ${MAX_EXPANDED_NODES} JSON nodes`,
    });
    expect(expander.expandSchema({ $ref: '#/components/schemas/L10' }).nodes).toBeLessThanOrEqual(
      MAX_EXPANDED_NODES,
    );
  });

  it('refuses inputs nested deeper than the depth limit', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level <= MAX_EXPANDED_DEPTH; level += 1) deep = { items: deep };
    expect(refusalOf(() => new RefExpander(doc({})).expandSchema(deep))).toEqual({
      reason: 'invalid-operation',
      message: `has inputs nested deeper than ${MAX_EXPANDED_DEPTH} levels`,
    });
    let shallow: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 20; level += 1) shallow = { items: shallow };
    expect(refusalOf(() => new RefExpander(doc({})).expandSchema(shallow))).toBeUndefined();
  });
});

describe('RefExpander.resolveObject', () => {
  it('follows a chain of refs to a parameter, siblings winning', () => {
    const expander = new RefExpander({
      openapi: '3.1.0',
      components: {
        parameters: {
          Limit: { name: 'limit', in: 'query', description: 'target' },
          Alias: { $ref: '#/components/parameters/Limit' },
        },
      },
    });
    expect(
      expander.resolveObject({ $ref: '#/components/parameters/Alias', description: 'mine' }),
    ).toEqual({ name: 'limit', in: 'query', description: 'mine' });
  });

  it('refuses a reference cycle between objects', () => {
    const expander = new RefExpander({
      openapi: '3.1.0',
      components: {
        parameters: {
          A: { $ref: '#/components/parameters/B' },
          B: { $ref: '#/components/parameters/A' },
        },
      },
    });
    expect(
      refusalOf(() => expander.resolveObject({ $ref: '#/components/parameters/A' }))?.reason,
    ).toBe('recursive-ref');
  });
});
