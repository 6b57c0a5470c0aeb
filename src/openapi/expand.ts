/**
 * Bounded expansion of local `$ref`s, only for what an operation's inputs reach. Each component
 * is expanded once and shared (memoized by its pointer), so thousands of operations that use the
 * same components cost linear time; the expanded size and depth of each component are memoized
 * too, so an operation over the node budget or the depth is refused without building its tree.
 * OpenAPI 3.0 schema dialect (`nullable`, boolean `exclusiveMinimum`) becomes JSON Schema on the
 * way. Pure: no I/O.
 */
import { decodePointerSegment } from '../binding/kernel/json-pointer.js';
import { isRecord } from '../binding/kernel/type-guards.js';
import { OperationRefusal, refuse } from './refusal.js';

/** Most JSON nodes an operation's inputs may expand to. */
export const MAX_EXPANDED_NODES = 100_000;
/** Deepest nesting an operation's expanded inputs may reach. */
export const MAX_EXPANDED_DEPTH = 64;

/** A schema after expansion, with the size and height of its (shared) tree. */
export interface ExpandedSchema {
  readonly schema: unknown;
  /** JSON nodes of the fully inlined tree (data values count one each). */
  readonly nodes: number;
  /** Nesting height of the fully inlined tree. */
  readonly height: number;
}

/** Keywords whose value is data, never a schema: copied as they are. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set([
  'example',
  'examples',
  'default',
  'enum',
  'const',
  'required',
  'type',
  'format',
  'pattern',
  'description',
  'title',
]);
/** OpenAPI-only keywords that mean nothing to a JSON Schema validator or a model. */
const DROPPED_KEYWORDS: ReadonlySet<string> = new Set(['discriminator', 'xml', 'externalDocs']);
/** Keywords whose value is a map of schemas. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/** Expands the schemas and resolves the objects of one document; one instance per document. */
export class RefExpander {
  readonly #document: Record<string, unknown>;
  readonly #openApi30: boolean;
  readonly #memo = new Map<string, ExpandedSchema | OperationRefusal>();
  readonly #targets = new Map<string, unknown>();
  readonly #active = new Set<string>();

  constructor(document: Record<string, unknown>) {
    this.#document = document;
    this.#openApi30 = String(document.openapi ?? '').startsWith('3.0');
  }

  /** The target of a local pointer; refuses external, missing and non-object targets. */
  #target(ref: string): unknown {
    if (this.#targets.has(ref)) return this.#targets.get(ref);
    const target = this.#lookup(ref);
    this.#targets.set(ref, target);
    return target;
  }

  #lookup(ref: string): unknown {
    if (!ref.startsWith('#')) refuse('external-ref', `references "${ref}" outside the document`);
    const segments = ref === '#' ? [] : ref.slice(1).split('/').slice(1);
    if (ref !== '#' && !ref.startsWith('#/')) {
      refuse('invalid-operation', `has a malformed reference "${ref}"`);
    }
    let node: unknown = this.#document;
    for (const segment of segments) {
      const key = decodePointerSegment(segment);
      node =
        isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
      if (node === undefined)
        refuse('invalid-operation', `has a reference "${ref}" that does not resolve`);
    }
    if (!isRecord(node) && typeof node !== 'boolean') {
      refuse('invalid-operation', `has a reference "${ref}" that is not an object`);
    }
    return node;
  }

  /**
   * A non-schema object (parameter, request body, media type) with its `$ref` chain followed;
   * keys beside a `$ref` override the target's.
   */
  resolveObject(node: unknown): Record<string, unknown> | undefined {
    // Most objects are written in place: nothing to follow, nothing to allocate.
    if (!isRecord(node)) return undefined;
    if (typeof node.$ref !== 'string') return node;
    const seen = new Set<string>();
    let current: unknown = node;
    let overrides: Record<string, unknown> = {};
    while (isRecord(current) && typeof current.$ref === 'string') {
      const ref = current.$ref;
      if (seen.has(ref)) refuse('recursive-ref', `has a reference cycle through "${ref}"`);
      seen.add(ref);
      const { $ref: _ignored, ...siblings } = current;
      overrides = { ...siblings, ...overrides };
      current = this.#target(ref);
    }
    if (!isRecord(current)) return undefined;
    return Object.keys(overrides).length === 0 ? current : { ...current, ...overrides };
  }

  /** A schema with every local `$ref` it reaches inlined (shared), in JSON Schema dialect. */
  expandSchema(node: unknown): ExpandedSchema {
    const expanded = this.#expand(node, 0);
    if (expanded.nodes > MAX_EXPANDED_NODES) {
      refuse(
        'invalid-operation',
        `has inputs that expand to more than ${MAX_EXPANDED_NODES} JSON nodes`,
      );
    }
    return expanded;
  }

  #expand(node: unknown, depth: number): ExpandedSchema {
    if (depth > MAX_EXPANDED_DEPTH) {
      refuse('invalid-operation', `has inputs nested deeper than ${MAX_EXPANDED_DEPTH} levels`);
    }
    if (Array.isArray(node)) return this.#expandArray(node, depth);
    if (!isRecord(node)) return { schema: node, nodes: 1, height: 1 };
    if (typeof node.$ref === 'string') return this.#expandRef(node, depth);
    return this.#expandObject(node, depth);
  }

  #expandArray(node: readonly unknown[], depth: number): ExpandedSchema {
    let nodes = 1;
    let height = 0;
    const schema = node.map((item) => {
      const expanded = this.#expand(item, depth + 1);
      nodes += expanded.nodes;
      height = Math.max(height, expanded.height);
      return expanded.schema;
    });
    return { schema, nodes, height: height + 1 };
  }

  #expandRef(node: Record<string, unknown>, depth: number): ExpandedSchema {
    const ref = node.$ref as string;
    const target = this.#component(ref);
    if (depth + target.height > MAX_EXPANDED_DEPTH + 1) {
      refuse('invalid-operation', `has inputs nested deeper than ${MAX_EXPANDED_DEPTH} levels`);
    }
    const { $ref: _ignored, ...siblings } = node;
    if (Object.keys(siblings).length === 0 || !isRecord(target.schema)) return target;
    // Keys beside the `$ref` override the target's: a new object over the shared one.
    const own = this.#expandObject(siblings, depth);
    return {
      schema: { ...target.schema, ...(own.schema as Record<string, unknown>) },
      nodes: target.nodes + own.nodes,
      height: Math.max(target.height, own.height),
    };
  }

  /** One component, expanded once; a refusal is memoized too, so a bad one is refused fast. */
  #component(ref: string): ExpandedSchema {
    const known = this.#memo.get(ref);
    if (known instanceof OperationRefusal) throw known;
    if (known !== undefined) return known;
    if (this.#active.has(ref)) refuse('recursive-ref', `has a reference cycle through "${ref}"`);
    if (this.#active.size >= MAX_EXPANDED_DEPTH) {
      refuse('invalid-operation', `nests references deeper than ${MAX_EXPANDED_DEPTH} levels`);
    }
    this.#active.add(ref);
    try {
      const expanded = this.#expand(this.#target(ref), 0);
      this.#memo.set(ref, expanded);
      return expanded;
    } catch (error) {
      // Expanded from the component itself, a refusal (a cycle it reaches included) holds for
      // every path to it.
      if (error instanceof OperationRefusal) this.#memo.set(ref, error);
      throw error;
    } finally {
      this.#active.delete(ref);
    }
  }

  #expandObject(node: Record<string, unknown>, depth: number): ExpandedSchema {
    // Copy on write: a schema with nothing to inline, drop or rewrite is shared as it is, so
    // the document's own objects are not duplicated.
    let copy: Record<string, unknown> | undefined;
    let nodes = 1;
    let height = 0;
    const keys = Object.keys(node);
    // The copy starts with the keys before `index`, as they were (dropped ones left out).
    const startCopy = (index: number): Record<string, unknown> => {
      const started: Record<string, unknown> = {};
      for (const earlier of keys.slice(0, index)) {
        if (!isDropped(earlier)) started[earlier] = node[earlier];
      }
      return started;
    };
    const write = (index: number, key: string, value: unknown): void => {
      if (copy === undefined && value === node[key]) return;
      copy ??= startCopy(index);
      copy[key] = value;
    };
    keys.forEach((key, index) => {
      const value = node[key];
      if (isDropped(key)) {
        copy ??= startCopy(index);
        return;
      }
      if (DATA_KEYWORDS.has(key)) {
        nodes += 1;
        write(index, key, value);
      } else if (SCHEMA_MAPS.has(key) && isRecord(value)) {
        let map: Record<string, unknown> | undefined;
        for (const [name, child] of Object.entries(value)) {
          const expanded = this.#expand(child, depth + 2);
          nodes += expanded.nodes + 1;
          height = Math.max(height, expanded.height + 1);
          if (expanded.schema !== child) map ??= { ...value };
          if (map !== undefined) map[name] = expanded.schema;
        }
        nodes += 1;
        write(index, key, map ?? value);
      } else {
        const expanded = this.#expand(value, depth + 1);
        nodes += expanded.nodes;
        height = Math.max(height, expanded.height);
        write(index, key, expanded.schema);
      }
    });
    if (this.#openApi30 && needsDialectRewrite(copy ?? node)) {
      copy ??= { ...node };
      toJsonSchemaDialect(copy);
    }
    return { schema: copy ?? node, nodes, height: height + 1 };
  }
}

function isDropped(key: string): boolean {
  return key.startsWith('x-') || DROPPED_KEYWORDS.has(key);
}

function needsDialectRewrite(schema: Record<string, unknown>): boolean {
  return (
    'nullable' in schema ||
    typeof schema.exclusiveMinimum === 'boolean' ||
    typeof schema.exclusiveMaximum === 'boolean'
  );
}

/**
 * OpenAPI 3.0's schema dialect, rewritten in place as JSON Schema: `nullable: true` adds `null`
 * to the type (and to an `enum`); boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers.
 */
function toJsonSchemaDialect(schema: Record<string, unknown>): void {
  if ('nullable' in schema) {
    if (schema.nullable === true) {
      if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
        schema.enum = [...schema.enum, null];
      }
    }
    delete schema.nullable;
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[flag] !== 'boolean') continue;
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      schema[flag] = schema[bound];
      delete schema[bound];
    } else {
      delete schema[flag];
    }
  }
}
