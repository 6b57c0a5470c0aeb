/**
 * The zod input of an OpenAPI tool, compiled from its JSON Schema on the tool's first call rather
 * than at mount: converting a large document's schemas eagerly costs several times the mount
 * budget, and most mounted tools are never called. The schema the model sees is the JSON Schema
 * itself (not a zod round trip). A schema zod cannot convert is still checked for required and
 * unknown properties.
 */
import { z } from 'zod';
import {
  type NullArgumentPlan,
  nullArgumentPlan,
  withoutNullArguments,
} from '../binding/kernel/null-arguments.js';

type Issue = { readonly message: string; readonly path: readonly PropertyKey[] };
type Check = (value: Record<string, unknown>) => readonly Issue[];

function structuralCheck(schema: Record<string, unknown>): Check {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as readonly string[];
  return (value) => [
    ...required
      .filter((name) => value[name] === undefined)
      .map((name) => ({ message: `Missing required property "${name}"`, path: [name] })),
    ...Object.keys(value)
      .filter((name) => !(name in properties))
      .map((name) => ({ message: `Unknown property "${name}"`, path: [name] })),
  ];
}

function compile(schema: Record<string, unknown>): Check {
  let compiled: z.ZodType;
  try {
    compiled = z.fromJSONSchema(schema);
  } catch {
    return structuralCheck(schema);
  }
  return (value) => {
    const parsed = compiled.safeParse(value);
    if (parsed.success) return [];
    // One issue per unknown key, at its own path, so a model can see which argument to drop.
    return parsed.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({
            message: `Unknown property "${key}"`,
            path: [...issue.path, key],
          }))
        : [{ message: issue.message, path: issue.path }],
    );
  };
}

/** The one loose object every OpenAPI input refines: refining it is the cheapest zod object. */
const LOOSE_OBJECT = z.looseObject({});

/**
 * The `input` an OpenAPI tool is built and checked with before the mount gives it its own, made on
 * first read (`withLazyInput` of the tool contract, decision 0053).
 */
export const PENDING_INPUT: z.ZodObject = LOOSE_OBJECT;

/**
 * A zod object that accepts exactly what `schema` (an object schema) accepts, compiled lazily,
 * and passes the value through unchanged (no defaults are injected: the service applies its own),
 * except that a `null` for an optional parameter, or an optional property of the JSON body, whose
 * schema refuses `null` is dropped first: that parameter or property is not sent (decision 0036).
 */
export function lazyInputValidator(schema: Record<string, unknown>): z.ZodObject {
  let check: Check | undefined;
  let nulls: { readonly plan: NullArgumentPlan | undefined } | undefined;
  return LOOSE_OBJECT.check((payload) => {
    check ??= compile(schema);
    nulls ??= { plan: nullArgumentPlan(schema, ['body']) };
    payload.value = withoutNullArguments(payload.value, nulls.plan) as Record<string, unknown>;
    for (const issue of check(payload.value)) {
      payload.issues.push({
        code: 'custom',
        message: issue.message,
        path: [...issue.path],
        input: payload.value,
      });
    }
  });
}
