/**
 * Converting a server's JSON Schema tool input into the zod object a mounted tool validates with,
 * and what happens at mount when one tool's schema cannot be converted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { runTool } from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';
import {
  inputValidatorOf,
  jsonByteLength,
  zodObjectFromJsonSchema,
} from '../../src/connections/tool-schema.js';
import { type FaultServer, mcpHandler, startFaultServer } from '../fixtures/fault-server.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

const STAMP_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
const STAMP_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const ITEM_DEFINITION = {
  type: 'object',
  properties: { id: { type: 'integer' } },
  required: ['id'],
};

function accepts(schema: z.ZodObject, value: unknown): boolean {
  return schema.safeParse(value).success;
}

describe('zodObjectFromJsonSchema', () => {
  it.each([
    ['an absent schema', undefined],
    ['an empty schema', {}],
    ['a bare object type', { type: 'object' }],
    ['a bare object type with a 2020-12 stamp', { $schema: STAMP_2020_12, type: 'object' }],
  ])('turns %s into an object that accepts any keys', (_label, schema) => {
    const converted = zodObjectFromJsonSchema(schema);
    expect(converted.parse({ anything: 1, nested: { deep: true } })).toEqual({
      anything: 1,
      nested: { deep: true },
    });
    expect(accepts(converted, {})).toBe(true);
    expect(accepts(converted, 'text')).toBe(false);
  });

  it('keeps properties, types and required keys', () => {
    const converted = zodObjectFromJsonSchema({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'string' } },
      required: ['a'],
    });
    expect(converted.parse({ a: 1, b: 'x' })).toEqual({ a: 1, b: 'x' });
    expect(accepts(converted, { a: 1 })).toBe(true);
    expect(accepts(converted, { b: 'x' })).toBe(false);
    expect(accepts(converted, { a: '1' })).toBe(false);
  });

  it.each([
    ['a 2020-12 stamp', { $schema: STAMP_2020_12 }],
    ['no stamp', {}],
    ['a draft-07 stamp', { $schema: STAMP_DRAFT_07 }],
  ])('resolves draft-07 definitions under %s', (_label, stamp) => {
    const converted = zodObjectFromJsonSchema({
      ...stamp,
      type: 'object',
      properties: { item: { $ref: '#/definitions/item' } },
      required: ['item'],
      definitions: { item: ITEM_DEFINITION },
    });
    expect(converted.parse({ item: { id: 7 } })).toEqual({ item: { id: 7 } });
    expect(accepts(converted, { item: { id: 'seven' } })).toBe(false);
    expect(accepts(converted, { item: {} })).toBe(false);
    expect(accepts(converted, {})).toBe(false);
  });

  it('resolves 2020-12 $defs', () => {
    const converted = zodObjectFromJsonSchema({
      $schema: STAMP_2020_12,
      type: 'object',
      properties: { item: { $ref: '#/$defs/item' } },
      required: ['item'],
      $defs: { item: ITEM_DEFINITION },
    });
    expect(accepts(converted, { item: { id: 1 } })).toBe(true);
    expect(accepts(converted, { item: { id: 1.5 } })).toBe(false);
  });

  it('throws for a $ref that resolves nowhere', () => {
    expect(() =>
      zodObjectFromJsonSchema({
        type: 'object',
        properties: { x: { $ref: '#/definitions/missing' } },
      }),
    ).toThrow('Reference not found: #/definitions/missing');
  });

  it.each([
    ['null', null],
    ['a string', 'object'],
    ['a number', 42],
    ['a boolean', true],
    ['an array', []],
  ])('throws a TypeError for %s instead of a schema object', (_label, schema) => {
    expect(() => zodObjectFromJsonSchema(schema)).toThrow(
      new TypeError('inputSchema must be a JSON Schema object'),
    );
  });

  it.each([
    ['a bare string type', { type: 'string' }],
    ['a bare string type with a stamp', { $schema: STAMP_2020_12, type: 'string' }],
    ['a constrained string', { type: 'string', minLength: 1 }],
    ['an array type', { type: 'array', items: { type: 'number' } }],
  ])('throws a TypeError for a schema of %s, which describes no object', (_label, schema) => {
    expect(() => zodObjectFromJsonSchema(schema)).toThrow(
      new TypeError('inputSchema must describe an object'),
    );
  });
});

describe('jsonByteLength', () => {
  it.each([
    ['an ASCII object', { a: 1 }, 7],
    ['a two-byte character', { a: 'é' }, 10],
    ['a three-byte character', '€', 5],
    ['a four-byte character', '𝄞', 6],
    ['an empty schema', {}, 2],
    ['undefined (no JSON form)', undefined, 0],
  ])('counts the UTF-8 bytes of the JSON of %s', (_label, value, bytes) => {
    expect(jsonByteLength(value)).toBe(bytes);
  });
});

describe('mounting a surface with one unconvertible tool', () => {
  const BROKEN_SCHEMA = {
    type: 'object',
    properties: { x: { $ref: '#/definitions/missing' } },
  };
  const TOOLS = [
    {
      name: 'echo',
      description: 'Echoes the message back.',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
      },
    },
    { name: 'broken', description: 'Has a dangling reference.', inputSchema: BROKEN_SCHEMA },
    { name: 'ping', description: 'Takes nothing.', inputSchema: { type: 'object' } },
  ];

  let server: FaultServer;
  let baseline: ReturnType<typeof activeResourceCounts>;
  const unhandled = trackUnhandledRejections();

  beforeAll(async () => {
    baseline = activeResourceCounts();
    server = await startFaultServer(mcpHandler({}, { tools: TOOLS }));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await server.close();
    await expectNoLeakedResources(baseline);
    expect(unhandled).toEqual([]);
  });

  function connection() {
    return defineMcpClientConnection({ name: 'schemas', transport: { url: server.url } });
  }

  it('skips only that tool, reports it through onSkippedTool and mounts the rest', async () => {
    const skipped: SkippedTool[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tools = await mountConnections([connection()], {
      onSkippedTool: (entry) => skipped.push(entry),
    });
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'ping']);
    expect(skipped).toEqual([
      {
        connection: 'schemas',
        tool: 'broken',
        reason: 'unconvertible-schema',
        message: 'Reference not found: #/definitions/missing',
      },
    ]);
    expect(warn).not.toHaveBeenCalled();
    const echo = tools[0];
    if (echo === undefined) throw new Error('echo not mounted');
    const result = await runTool(echo, { message: 'still works' }, { source: 'agent' });
    expect(result).toEqual({
      ok: true,
      data: { content: [{ type: 'text', text: 'Echo: still works' }] },
    });
  });

  it('writes one console.warn line per reason without onSkippedTool, with its count and an example', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tools = await mountConnections([connection()]);
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'ping']);
    expect(warn.mock.calls).toEqual([
      [
        '[stitchkit-transport] connection "schemas": 1 tool not mounted (unconvertible-schema), e.g. "broken": Reference not found: #/definitions/missing',
      ],
    ]);
  });

  it('keeps mounting when onSkippedTool itself throws', async () => {
    const tools = await mountConnections([connection()], {
      onSkippedTool: () => {
        throw new Error('reporter broke');
      },
    });
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'ping']);
  });
});

describe('inputValidatorOf, for JSON Schema 2020-12 that zod cannot express', () => {
  it.each([
    [
      'if/then/else',
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        if: { required: ['a'] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema conditional, data that is never awaited
        then: { required: ['b'] },
      },
      'Conditional schemas (if/then/else) are not supported',
    ],
    [
      'dependentRequired',
      { type: 'object', dependentRequired: { a: ['b'] } },
      'dependentSchemas and dependentRequired are not supported',
    ],
    [
      'unevaluatedProperties',
      { type: 'object', unevaluatedProperties: false },
      'unevaluatedProperties is not supported',
    ],
    [
      'an $anchor reference',
      {
        type: 'object',
        $defs: { s: { $anchor: 'str', type: 'string' } },
        properties: { a: { $ref: '#str' } },
      },
      'Reference not found: #str',
    ],
    [
      'a composed root',
      { type: 'object', allOf: [{ properties: { a: { type: 'string' } } }, { required: ['a'] }] },
      'its root is a intersection, not a plain object',
    ],
  ])(
    'leaves %s to the server: the arguments are checked to be an object only',
    (_label, schema, reason) => {
      const validator = inputValidatorOf({ $schema: STAMP_2020_12, ...schema });
      expect(validator.unvalidated).toBe(
        `inputSchema cannot be converted to a validator here (${reason}); the tool is mounted and the server validates its arguments`,
      );
      expect(accepts(validator.schema, { anything: [1, 2] })).toBe(true);
      expect(validator.schema.safeParse('not an object').success).toBe(false);
    },
  );

  it('validates locally what zod expresses, with no report', () => {
    const validator = inputValidatorOf({ type: 'object', properties: { a: { type: 'string' } } });
    expect(validator.unvalidated).toBeUndefined();
    expect(accepts(validator.schema, { a: 1 })).toBe(false);
  });
});

describe('inputValidatorOf, for a null optional argument (decision 0036)', () => {
  const validator = inputValidatorOf({
    type: 'object',
    properties: {
      a: { type: 'string' },
      n: { type: 'integer', default: 3 },
      m: { type: ['string', 'null'] },
    },
    required: ['a'],
  });

  it('reads it as not provided, so a default applies', () => {
    expect(validator.schema.parse({ a: 'x', n: null })).toEqual({ a: 'x', n: 3 });
  });

  it('keeps a null the schema accepts, and refuses one for a required argument', () => {
    expect(validator.schema.parse({ a: 'x', m: null })).toEqual({ a: 'x', n: 3, m: null });
    const refused = validator.schema.safeParse({ a: null, n: 'seven' });
    expect(refused.error?.issues.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'invalid_type', path: ['a'] },
      { code: 'invalid_type', path: ['n'] },
    ]);
  });

  it('drops it for a schema the server validates, too', () => {
    const unvalidated = inputValidatorOf({
      type: 'object',
      properties: { kind: { type: 'string' } },
      dependentRequired: { kind: ['size'] },
    });
    expect(unvalidated.unvalidated).toBeDefined();
    expect(unvalidated.schema.parse({ kind: null, other: null })).toEqual({ other: null });
  });
});

describe('mounting a tool whose input schema uses the rest of JSON Schema 2020-12', () => {
  const CONDITIONAL = {
    $schema: STAMP_2020_12,
    type: 'object',
    properties: { kind: { type: 'string' }, size: { type: 'integer' } },
    if: { properties: { kind: { const: 'box' } } },
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema conditional, data that is never awaited
    then: { required: ['size'] },
  };
  let server: FaultServer;
  let baseline: ReturnType<typeof activeResourceCounts>;
  const unhandled = trackUnhandledRejections();

  beforeAll(async () => {
    baseline = activeResourceCounts();
    server = await startFaultServer(
      mcpHandler(
        {},
        { tools: [{ name: 'echo', description: 'Echoes.', inputSchema: CONDITIONAL }] },
      ),
    );
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await server.close();
    await expectNoLeakedResources(baseline);
    expect(unhandled).toEqual([]);
  });

  it('mounts it, shows the schema as written, reports it once, and sends the arguments to the server', async () => {
    const skipped: SkippedTool[] = [];
    const [tool] = await mountConnections(
      [defineMcpClientConnection({ name: 'schemas', transport: { url: server.url } })],
      { onSkippedTool: (entry) => skipped.push(entry) },
    );
    if (tool === undefined) throw new Error('echo not mounted');
    expect(tool.inputJsonSchema).toEqual(CONDITIONAL);
    expect(skipped).toEqual([
      {
        connection: 'schemas',
        tool: 'echo',
        reason: 'unvalidated-input-schema',
        message:
          'inputSchema cannot be converted to a validator here (Conditional schemas (if/then/else) are not supported); the tool is mounted and the server validates its arguments',
      },
    ]);
    const from = server.count();
    const result = await runTool(tool, { message: 'box', kind: 'box' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: { content: [{ type: 'text', text: 'Echo: box' }] } });
    const call = server.requests
      .slice(from)
      .find((request) => request.rpc?.method === 'tools/call');
    expect(call?.rpc?.params).toMatchObject({
      name: 'echo',
      arguments: { message: 'box', kind: 'box' },
    });
  });

  it('says on stderr that the server validates, when nobody takes the report', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await mountConnections([
      defineMcpClientConnection({ name: 'schemas', transport: { url: server.url } }),
    ]);
    expect(warn.mock.calls.map(([line]) => String(line).split(':')[0])).toEqual([
      '[stitchkit-transport] connection "schemas"',
    ]);
    expect(String(warn.mock.calls[0]?.[0])).toContain(
      '1 tool mounted, arguments validated by the server only (unvalidated-input-schema), e.g. "echo": ',
    );
  });
});
