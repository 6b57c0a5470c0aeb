/**
 * Structural access to zod 4 schemas. zod is a peer dependency, so a schema may come from the
 * application's own copy of zod: nothing here uses `instanceof`; schemas are recognised by their
 * `_zod.def` and driven through their own methods.
 */
import { z } from 'zod';

/** A JSON Schema document, as produced by zod's converter. */
export type JsonSchemaObject = Record<string, unknown>;

/** One safe, model-facing validation issue: where it happened and what the rule says. */
export interface ValidationIssue {
  /** Path of the offending value inside the arguments, e.g. `['items', 0, 'id']`. */
  path: (string | number)[];
  /** The issue's message, as worded by the schema. */
  message: string;
  /** zod's issue code, e.g. `invalid_type`. */
  code: string;
}

/** The outcome of validating a value with a schema's own `safeParseAsync`. */
export type SchemaParseOutcome =
  | { success: true; data: unknown }
  | { success: false; issues: ValidationIssue[]; error: unknown };

interface StructuralZodSchema {
  _zod: { def: { type: string } };
  safeParseAsync(value: unknown): Promise<{ success: boolean; data?: unknown; error?: unknown }>;
}

interface StandardJsonSchemaCarrier {
  '~standard'?: { jsonSchema?: { input?: (options: { target: string }) => unknown } };
}

/** True when `value` looks like a zod 4 schema (from any copy of zod). */
export function isZodSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const internals = (value as { _zod?: { def?: { type?: unknown } } })._zod;
  return (
    typeof internals?.def?.type === 'string' &&
    typeof (value as { safeParseAsync?: unknown }).safeParseAsync === 'function'
  );
}

/** True when `value` is a zod 4 object schema (`z.object`, `z.strictObject`, `zod/mini` alike). */
export function isZodObjectSchema(value: unknown): boolean {
  return isZodSchema(value) && (value as StructuralZodSchema)._zod.def.type === 'object';
}

/** Validates `value` with the schema's own `safeParseAsync` and flattens zod issues to safe rows. */
export async function parseWithSchema(
  schema: unknown,
  value: unknown,
): Promise<SchemaParseOutcome> {
  const outcome = await (schema as StructuralZodSchema).safeParseAsync(value);
  if (outcome.success) return { success: true, data: outcome.data };
  return { success: false, issues: issuesOf(outcome.error), error: outcome.error };
}

function issuesOf(error: unknown): ValidationIssue[] {
  const raw = (error as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(raw)) return [];
  return raw.map((issue: { path?: unknown; message?: unknown; code?: unknown }) => ({
    path: Array.isArray(issue.path)
      ? issue.path.map((key: unknown) => (typeof key === 'number' ? key : String(key)))
      : [],
    message: typeof issue.message === 'string' ? issue.message : 'Invalid value',
    code: typeof issue.code === 'string' ? issue.code : 'custom',
  }));
}

/**
 * The draft-07 JSON Schema of a zod 4 schema's input side. Uses the schema's own Standard JSON
 * Schema converter when its zod copy has one, else our zod's converter (same major, structural).
 */
export function toInputJsonSchema(schema: unknown): JsonSchemaObject {
  const converter = (schema as StandardJsonSchemaCarrier)['~standard']?.jsonSchema;
  const converted =
    typeof converter?.input === 'function'
      ? converter.input({ target: 'draft-07' })
      : z.toJSONSchema(schema as z.ZodType, { target: 'draft-07', io: 'input' });
  return converted as JsonSchemaObject;
}
