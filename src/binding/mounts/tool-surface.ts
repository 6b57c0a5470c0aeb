/**
 * What a mount exposes: the definitions on one transport, checked and free of duplicate names,
 * their advertised JSON Schemas, and the introspection views over a set of definitions.
 */
import {
  type AnyRuntimeToolDefinition,
  assertRuntimeToolDefinition,
  resolveToolTransports,
  type ToolHttpMethod,
  type ToolTransport,
} from '../contract/runtime-tool.js';
import { type JsonSchemaObject, toInputJsonSchema } from '../contract/zod-schema.js';
import type { ToolAnnotations } from '../kernel/mcp-types.js';

/** A transport a tool surface is advertised on. */
export type AdvertisedTransport = 'MCP' | 'AGENT';

/** One row of {@link listToolNames}. */
export interface ToolNameEntry {
  /** The tool's name. */
  name: string;
  /** `identity.serviceName`. */
  service: string;
  /** `identity.action`. */
  action: string;
  /** `identity.method`. */
  method: ToolHttpMethod;
  /** The transports the tool is exposed on, in MCP, AGENT, CLI order. */
  transports: ToolTransport[];
}

/** One advertised tool of {@link buildToolManifest}. */
export interface ToolManifestEntry {
  /** The tool's name. */
  name: string;
  /** The tool's description. */
  description: string;
  /** The draft-07 JSON Schema of the tool's input. */
  inputSchema: JsonSchemaObject;
  /** The JSON Schema of the tool's structured output, when it declares `outputJsonSchema`. */
  outputSchema?: JsonSchemaObject;
  /** MCP annotations, when declared. */
  annotations?: ToolAnnotations;
}

/** Per-transport tool counts of {@link summarizeTransports}. */
export interface TransportSummary {
  /** How many tools each transport exposes. */
  totals: Record<ToolTransport, number>;
}

const TRANSPORT_LABEL: Record<AdvertisedTransport, string> = {
  MCP: 'MCP tool name',
  AGENT: 'agent tool name',
};

/**
 * The definitions exposed on `transport`, each checked, in their given order; one definition
 * listed twice is mounted once. Throws when two share a name, naming both sources as
 * `serviceName.action`.
 */
export function collectToolSurface(
  runtimeTools: readonly AnyRuntimeToolDefinition[],
  transport: AdvertisedTransport,
): AnyRuntimeToolDefinition[] {
  const byName = new Map<string, AnyRuntimeToolDefinition>();
  for (const definition of runtimeTools) {
    assertRuntimeToolDefinition(definition);
    if (!resolveToolTransports(definition).includes(transport)) continue;
    const existing = byName.get(definition.name);
    // One definition listed twice (the `read_result` of two mounts spilling into one boundary
    // concatenated) is mounted once.
    if (existing === definition) continue;
    if (existing !== undefined) {
      throw new Error(
        `Duplicate ${TRANSPORT_LABEL[transport]} "${definition.name}" across mounted operations: ` +
          `${sourceOf(existing)}, ${sourceOf(definition)}`,
      );
    }
    byName.set(definition.name, definition);
  }
  return [...byName.values()];
}

function sourceOf(definition: AnyRuntimeToolDefinition): string {
  return `${definition.identity.serviceName}.${definition.identity.action}`;
}

const jsonSchemaCache = new WeakMap<object, JsonSchemaObject>();

/**
 * The advertised JSON Schema of a definition's input, shared and never to be mutated: its
 * `inputJsonSchema` when it declares one, else the draft-07 conversion of `input`, converted once
 * per schema. For mounts that copy it only when a consumer asks (copying every schema at mount
 * is most of a large mount's cost). Throws, naming the tool, when the input has no JSON Schema
 * form (e.g. `z.date()`).
 */
export function sharedInputJsonSchema(
  definition: AnyRuntimeToolDefinition,
): Readonly<JsonSchemaObject> {
  if (definition.inputJsonSchema !== undefined) return definition.inputJsonSchema;
  let schema = jsonSchemaCache.get(definition.input);
  if (schema === undefined) {
    try {
      schema = toInputJsonSchema(definition.input);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new TypeError(
        `Runtime tool "${definition.name}": input cannot be converted to JSON Schema: ${reason}`,
      );
    }
    jsonSchemaCache.set(definition.input, schema);
  }
  return schema;
}

/**
 * The advertised JSON Schema of a definition's input (see {@link sharedInputJsonSchema}) as a
 * fresh copy, since consumers (the AI SDK among them) mutate what they receive.
 */
export function toolInputJsonSchema(definition: AnyRuntimeToolDefinition): JsonSchemaObject {
  return structuredClone(sharedInputJsonSchema(definition)) as JsonSchemaObject;
}

/**
 * The advertised JSON Schema of a definition's structured output: a fresh copy of its
 * `outputJsonSchema`, or `undefined` when it declares none (a zod `output` is not advertised).
 */
export function toolOutputJsonSchema(
  definition: AnyRuntimeToolDefinition,
): JsonSchemaObject | undefined {
  return definition.outputJsonSchema === undefined
    ? undefined
    : structuredClone(definition.outputJsonSchema);
}

/**
 * Every definition's name, identity and transports, sorted by name then service. A diagnostic:
 * it does not refuse duplicates, so a broken surface still shows.
 */
export function listToolNames(runtimeTools: readonly AnyRuntimeToolDefinition[]): ToolNameEntry[] {
  return runtimeTools
    .map((definition) => ({
      name: definition.name,
      service: definition.identity.serviceName,
      action: definition.identity.action,
      method: definition.identity.method,
      transports: resolveToolTransports(definition),
    }))
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.service, b.service));
}

function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * The tools a mount on `transport` advertises, in mount order, with their input JSON Schemas
 * (and output JSON Schemas, for definitions that declare one).
 * Throws on duplicate names, as the mount would.
 */
export function buildToolManifest(
  runtimeTools: readonly AnyRuntimeToolDefinition[],
  options: { transport: AdvertisedTransport },
): ToolManifestEntry[] {
  return collectToolSurface(runtimeTools, options.transport).map((definition) => {
    const entry: ToolManifestEntry = {
      name: definition.name,
      description: definition.description,
      inputSchema: toolInputJsonSchema(definition),
    };
    const outputSchema = toolOutputJsonSchema(definition);
    if (outputSchema !== undefined) entry.outputSchema = outputSchema;
    if (definition.annotations !== undefined) entry.annotations = definition.annotations;
    return entry;
  });
}

/** How many of the definitions each transport exposes. */
export function summarizeTransports(
  runtimeTools: readonly AnyRuntimeToolDefinition[],
): TransportSummary {
  const totals: Record<ToolTransport, number> = { MCP: 0, AGENT: 0, CLI: 0 };
  for (const definition of runtimeTools) {
    for (const transport of resolveToolTransports(definition)) totals[transport] += 1;
  }
  return { totals };
}
