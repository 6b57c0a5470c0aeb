/**
 * Converts a server's JSON Schema tool input into a zod object once, at mount. Pure: no I/O.
 */
import { z } from 'zod';
import {
  type NullArgumentPlan,
  nullArgumentPlan,
  withoutNullArguments,
} from '../binding/kernel/null-arguments.js';

const DRAFT_07 = /draft-0[4-7]/;
/** zod's refusal of a `#/…` reference it cannot resolve (an `$anchor` reference is `#name`). */
const DANGLING_POINTER = /^Reference not found: #\//;

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

/** How a tool's arguments are checked before the call: by zod, or by the server alone. */
export interface InputValidator {
  /** The zod object the runner validates arguments with. */
  readonly schema: z.ZodObject;
  /**
   * Set when zod cannot express the schema (JSON Schema 2020-12 has keywords it does not convert:
   * `if`/`then`/`else`, `dependentRequired`, `unevaluatedProperties`, `$anchor` references, a
   * composed root): the arguments are checked to be an object only, and the server, which
   * validates them against the schema it wrote, has the last word (decision 0024).
   */
  readonly unvalidated?: string;
}

/**
 * The validator of a tool's `inputSchema`: an absent or empty schema accepts any object; a schema
 * zod converts to an object is that object; a valid object schema zod cannot convert is left to
 * the server. A `null` for an optional argument whose schema refuses `null` is dropped before
 * either checks it (decision 0036). Throws only for a schema that is not an object schema at all
 * (the caller skips that one tool).
 */
export function inputValidatorOf(inputSchema: unknown): InputValidator {
  const validator = convertedValidatorOf(inputSchema);
  const plan = nullArgumentPlan(inputSchema);
  if (plan === undefined) return validator;
  return { ...validator, schema: withNullsAsAbsent(validator.schema, plan) };
}

/** The one loose object the null-dropping validator refines. */
const LOOSE_OBJECT = z.looseObject({});

/**
 * `schema`, run on the arguments without the `null`s `plan` reads as "not provided": its issues
 * and its output (defaults included) are the caller's, as if the arguments had come without them.
 */
function withNullsAsAbsent(schema: z.ZodObject, plan: NullArgumentPlan): z.ZodObject {
  return LOOSE_OBJECT.check((payload) => {
    const parsed = schema.safeParse(withoutNullArguments(payload.value, plan));
    if (parsed.success) {
      payload.value = parsed.data;
      return;
    }
    for (const issue of parsed.error.issues) payload.issues.push(issue as z.core.$ZodRawIssue);
  });
}

function convertedValidatorOf(inputSchema: unknown): InputValidator {
  if (inputSchema === undefined) return { schema: z.looseObject({}) };
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) {
    throw new TypeError('inputSchema must be a JSON Schema object');
  }
  const { type } = inputSchema as Record<string, unknown>;
  if (type !== undefined && type !== 'object') {
    throw new TypeError('inputSchema must describe an object');
  }
  if (Object.keys(inputSchema).every((key) => key === 'type' || key === '$schema')) {
    return { schema: z.looseObject({}) };
  }
  let converted: z.ZodType;
  try {
    converted = z.fromJSONSchema(withDefsDialect(inputSchema as Record<string, unknown>));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // A JSON-pointer reference that resolves nowhere makes the schema invalid, for the server too.
    if (DANGLING_POINTER.test(reason)) throw error;
    return serverValidated(reason);
  }
  if (converted._zod.def.type !== 'object') {
    return serverValidated(`its root is a ${converted._zod.def.type}, not a plain object`);
  }
  return { schema: converted as unknown as z.ZodObject };
}

function serverValidated(reason: string): InputValidator {
  return {
    schema: z.looseObject({}),
    unvalidated: `inputSchema cannot be converted to a validator here (${reason}); the tool is mounted and the server validates its arguments`,
  };
}

/** The zod object of {@link inputValidatorOf}, for callers that need the schema alone. */
export function zodObjectFromJsonSchema(inputSchema: unknown): z.ZodObject {
  return inputValidatorOf(inputSchema).schema;
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
