/**
 * `null` for an optional argument is "not provided" when the tool's JSON Schema does not accept
 * `null` there: models emit `null` for fields they leave out (strict structured output does it by
 * design), and the schema would refuse it. Only a tool's own arguments are read (decision 0036):
 * the top-level properties, and the properties of a named object argument (an OpenAPI tool's
 * `body`). Pure: no I/O.
 */
import { decodePointerSegment } from './json-pointer.js';
import { isRecord } from './type-guards.js';

/** How many `$ref` hops are followed before a schema is taken to accept `null`. */
const MAX_REF_HOPS = 16;

/** Which arguments of a tool drop a `null`, worked out once from its input schema. */
export interface NullArgumentPlan {
  /** Optional top-level properties whose schema refuses `null`. */
  readonly absent: ReadonlySet<string>;
  /** Object arguments whose own properties follow the same rule (an OpenAPI tool's `body`). */
  readonly nested: ReadonlyMap<string, NullArgumentPlan>;
}

/** The value at a local JSON pointer (`#/$defs/x`) of `root`, when there is one. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodePointerSegment(raw);
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Whether `schema` may accept `null`, read from its `type` (with OpenAPI 3.0's `nullable`),
 * `enum`, `const`, `allOf`, `anyOf`, `oneOf` and local `$ref`s. When in doubt it says yes (an
 * unresolved `$ref`, `not`, `if`/`then`/`else` are not read): a kept `null` is refused by
 * validation as before, a dropped one could change what a call means.
 */
export function acceptsNull(schema: unknown, root: unknown = schema, hops = 0): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema)) return true;
  const { type } = schema;
  if (type !== undefined && schema.nullable !== true) {
    const types = Array.isArray(type) ? type : [type];
    if (!types.includes('null')) return false;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if ('const' in schema && schema.const !== null) return false;
  const each = (key: string) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []);
  const accepts = (branch: unknown) => acceptsNull(branch, root, hops);
  if (!each('allOf').every(accepts)) return false;
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[key]) && !each(key).some(accepts)) return false;
  }
  if (typeof schema.$ref === 'string' && hops < MAX_REF_HOPS) {
    const target = resolvePointer(root, schema.$ref);
    if (target !== undefined && !acceptsNull(target, root, hops + 1)) return false;
  }
  return true;
}

/** The schema `schema` names by a local `$ref`, followed until a schema without one. */
function dereferenced(schema: unknown, root: unknown): unknown {
  let node = schema;
  for (let hops = 0; hops < MAX_REF_HOPS && isRecord(node) && typeof node.$ref === 'string'; ) {
    const target = resolvePointer(root, node.$ref);
    if (target === undefined) return node;
    node = target;
    hops += 1;
  }
  return node;
}

/**
 * The plan of an object schema: its optional properties whose schema refuses `null`, and, for
 * each name in `nestedIn`, the same for that property's own object schema. `undefined` when no
 * argument would ever drop a `null`, so a tool without any pays nothing per call.
 */
export function nullArgumentPlan(
  schema: unknown,
  nestedIn: readonly string[] = [],
  root: unknown = schema,
): NullArgumentPlan | undefined {
  const object = dereferenced(schema, root);
  if (!isRecord(object) || !isRecord(object.properties)) return undefined;
  const required = new Set(Array.isArray(object.required) ? object.required : []);
  const absent = new Set<string>();
  const nested = new Map<string, NullArgumentPlan>();
  for (const [name, property] of Object.entries(object.properties)) {
    if (!required.has(name) && !acceptsNull(property, root)) absent.add(name);
    if (!nestedIn.includes(name)) continue;
    const inner = nullArgumentPlan(property, [], root);
    if (inner !== undefined) nested.set(name, inner);
  }
  return absent.size === 0 && nested.size === 0 ? undefined : { absent, nested };
}

/**
 * `args` without the `null`s its plan reads as "not provided"; `args` itself when it has none
 * (never changed in place: the caller's arguments stay as they were sent).
 */
export function withoutNullArguments(args: unknown, plan: NullArgumentPlan | undefined): unknown {
  if (plan === undefined || !isRecord(args)) return args;
  let copy: Record<string, unknown> | undefined;
  for (const name of plan.absent) {
    if (args[name] !== null) continue;
    copy ??= { ...args };
    delete copy[name];
  }
  for (const [name, inner] of plan.nested) {
    const value = (copy ?? args)[name];
    const cleaned = withoutNullArguments(value, inner);
    if (cleaned === value) continue;
    copy ??= { ...args };
    copy[name] = cleaned;
  }
  return copy ?? args;
}
