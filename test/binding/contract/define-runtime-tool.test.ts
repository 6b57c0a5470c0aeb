import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { withLazyInput } from '../../../src/binding/contract/runtime-tool.js';
import {
  type AnyRuntimeToolDefinition,
  defineRuntimeTool,
  mountAgent,
  resolveToolTransports,
  runTool,
  searchCatalog,
} from '../../../src/binding/index.js';

const valid = {
  name: 'lookup',
  description: 'Looks something up',
  identity: { serviceName: 'demo', action: 'lookup', method: 'GET' as const },
  input: z.object({ id: z.string() }),
  handler: () => null,
};

describe('defineRuntimeTool', () => {
  it('returns the definition it was given', () => {
    expect(defineRuntimeTool(valid)).toBe(valid);
  });

  it.each([
    {
      label: 'a name with a space',
      patch: { name: 'bad name' },
      message: 'Runtime tool "bad name": name must match [A-Za-z0-9_-]{1,64} (got 8 characters)',
    },
    {
      label: 'a 65-character name',
      patch: { name: 'a'.repeat(65) },
      message: `Runtime tool "${'a'.repeat(65)}": name must match [A-Za-z0-9_-]{1,64} (got 65 characters)`,
    },
    {
      label: 'an empty name',
      patch: { name: '' },
      message: 'Runtime tool "": name must match [A-Za-z0-9_-]{1,64} (got 0 characters)',
    },
    {
      label: 'a name that is not a string',
      patch: { name: 42 },
      message: 'Runtime tool "42": name must match [A-Za-z0-9_-]{1,64}',
    },
    {
      label: 'a description that is not a string',
      patch: { description: ['Looks', 'up'] },
      message: 'Runtime tool "lookup": description must be a string',
    },
    {
      label: 'empty transports',
      patch: { transports: [] },
      message: 'Runtime tool "lookup": must expose at least one transport',
    },
    {
      label: 'an unknown transport',
      patch: { transports: ['HTTP'] },
      message: 'Runtime tool "lookup": unknown transport "HTTP" (expected MCP, AGENT or CLI)',
    },
    {
      label: 'a non-object input',
      patch: { input: z.string() },
      message: 'Runtime tool "lookup": input must be a zod 4 object schema (z.object)',
    },
    {
      label: 'a raw shape as input',
      patch: { input: { id: z.string() } },
      message: 'Runtime tool "lookup": input must be a zod 4 object schema (z.object)',
    },
    {
      label: 'an unknown method',
      patch: { identity: { serviceName: 'demo', action: 'lookup', method: 'TRACE' } },
      message:
        'Runtime tool "lookup": identity.method must be one of GET, HEAD, POST, PUT, PATCH, DELETE',
    },
    {
      label: 'a missing action',
      patch: { identity: { serviceName: 'demo', method: 'GET' } },
      message: 'Runtime tool "lookup": identity.action must be a non-empty string',
    },
    {
      label: 'a non-zod output',
      patch: { output: { type: 'object' } },
      message: 'Runtime tool "lookup": output must be a zod 4 schema',
    },
    {
      label: 'an outputJsonSchema that describes no object',
      patch: { outputJsonSchema: { type: 'string' } },
      message:
        'Runtime tool "lookup": outputJsonSchema must be a JSON Schema object with type "object"',
    },
    {
      label: 'a missing handler',
      patch: { handler: undefined },
      message: 'Runtime tool "lookup": handler must be a function',
    },
    {
      label: 'a presenter that is not a function',
      patch: { present: { mcp: 'text' } },
      message: 'Runtime tool "lookup": present.mcp must be a function',
    },
  ])('refuses $label, naming the tool', ({ patch, message }) => {
    const definition = { ...valid, ...patch } as unknown as AnyRuntimeToolDefinition;
    expect(() => defineRuntimeTool(definition)).toThrow(new TypeError(message));
  });

  it('refuses a definition that is not an object', () => {
    expect(() => defineRuntimeTool(null as unknown as AnyRuntimeToolDefinition)).toThrow(
      new TypeError('Runtime tool definition must be an object'),
    );
  });

  it('accepts an object schema built with zod/mini and validates with it', async () => {
    const input = zm.object({ id: zm.string() }) as unknown as z.ZodObject;
    const tool = defineRuntimeTool({ ...valid, input, handler: (ctx) => ctx.input });
    expect(await runTool(tool, { id: 'a' }, { source: 'internal' })).toEqual({
      ok: true,
      data: { id: 'a' },
    });
    const refused = await runTool(tool, { id: 1 }, { source: 'internal' });
    expect(refused.ok === false && refused.code).toBe('VALIDATION_ERROR');
  });
});

describe('resolveToolTransports', () => {
  it.each([
    [undefined, ['MCP', 'AGENT']],
    [['CLI'], ['CLI']],
    [
      ['AGENT', 'MCP', 'CLI'],
      ['MCP', 'AGENT', 'CLI'],
    ],
  ] as const)('resolves %j to %j', (transports, expected) => {
    expect(resolveToolTransports({ transports })).toEqual(expected);
  });
});

describe('withLazyInput', () => {
  const lazyTool = () => {
    const made: number[] = [];
    const tool = withLazyInput(
      defineRuntimeTool({
        ...valid,
        inputJsonSchema: { type: 'object', properties: { id: { type: 'string' } } },
      }),
      () => {
        made.push(made.length);
        return z.object({ id: z.string() });
      },
    );
    return { tool, made };
  };

  it('makes the input on the first call, once, not when the tool is checked or mounted', async () => {
    const { tool, made } = lazyTool();
    defineRuntimeTool(tool);
    mountAgent({ runtimeTools: [tool], catalog: { mode: 'inline' } });
    searchCatalog([tool]);
    expect(made).toEqual([]);
    const refused = await runTool(tool, { id: 7 }, { source: 'internal' });
    expect(refused).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(await runTool(tool, { id: 'x' }, { source: 'internal' })).toEqual({
      ok: true,
      data: null,
    });
    expect(made).toEqual([0]);
  });

  it('gives a copy the made object', () => {
    const { tool, made } = lazyTool();
    const copy = { ...tool };
    expect(made).toEqual([0]);
    expect(copy.input).toBe(tool.input);
    expect(Object.getOwnPropertyDescriptor(copy, 'input')?.value).toBe(tool.input);
  });
});
