/**
 * Converts a server's JSON Schema tool input into a zod object once, at mount. Pure: no I/O.
 */
import { z } from 'zod';

const DRAFT_07 = /draft-0[4-7]/;

/**
 * Servers often stamp 2020-12 on documents that use draft-07 `definitions`; zod resolves `$defs`
 * in 2020-12 documents, so such refs are rewritten unless the document declares draft-07 itself.
 */
function withDefsDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (DRAFT_07.test(declared) || schema.definitions === undefined || schema.$defs !== undefined) {
    return schema;
  }
  const rewritten = JSON.parse(
    JSON.stringify(schema).replaceAll('"#/definitions/', '"#/$defs/'),
  ) as Record<string, unknown>;
  rewritten.$defs = rewritten.definitions;
  delete rewritten.definitions;
  return rewritten;
}

/**
 * The zod object for a tool's `inputSchema`: an absent or empty schema accepts any object; a schema
 * zod cannot convert throws (the caller skips that one tool).
 */
export function zodObjectFromJsonSchema(inputSchema: unknown): z.ZodObject {
  if (inputSchema === undefined) return z.looseObject({});
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) {
    throw new TypeError('inputSchema must be a JSON Schema object');
  }
  const { type } = inputSchema as Record<string, unknown>;
  if (
    (type === undefined || type === 'object') &&
    Object.keys(inputSchema).every((key) => key === 'type' || key === '$schema')
  ) {
    return z.looseObject({});
  }
  const converted = z.fromJSONSchema(withDefsDialect(inputSchema as Record<string, unknown>));
  if (converted._zod.def.type !== 'object') {
    throw new TypeError('inputSchema must describe an object');
  }
  return converted as unknown as z.ZodObject;
}

/**
 * The zod schema a tool's `outputSchema` is checked with, converted once at mount; `undefined`
 * when the tool declares none. Throws when zod cannot convert it or it describes no object (the
 * caller mounts the tool without output checking and reports it).
 */
export function zodFromOutputSchema(outputSchema: unknown): z.ZodType | undefined {
  if (outputSchema === undefined) return undefined;
  if (typeof outputSchema !== 'object' || outputSchema === null || Array.isArray(outputSchema)) {
    throw new TypeError('outputSchema must be a JSON Schema object');
  }
  const converted = z.fromJSONSchema(withDefsDialect(outputSchema as Record<string, unknown>));
  if (converted._zod.def.type !== 'object') {
    throw new TypeError('outputSchema must describe an object');
  }
  return converted;
}

/** UTF-8 byte length of a value's JSON form: what a tool's schema costs a model's context. */
export function jsonByteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}
