/**
 * What each connection-mounted tool costs a model's context, recorded at mount for the budget and
 * the catalog. The byte count is computed on first use: most mounts never ask for it, and
 * serialising a large document's schemas is a measurable share of the mount.
 */
import type { AnyRuntimeToolDefinition } from '../binding/index.js';
import type { ToolListCache } from '../wire/index.js';
import { jsonByteLength } from './tool-schema.js';

/** What a mounted tool costs. */
export interface MountedToolCost {
  /** The connection that mounted it. */
  readonly connection: string;
  /** UTF-8 bytes of its input schema as advertised. */
  readonly schemaBytes: number;
  /** The caching hint of the listing it came from, when the server sent one (MCP 2026-07-28). */
  readonly cache?: ToolListCache;
}

class RecordedCost implements MountedToolCost {
  #bytes: number | undefined;

  constructor(
    readonly connection: string,
    readonly schema: unknown,
    readonly cache: ToolListCache | undefined,
  ) {}

  get schemaBytes(): number {
    this.#bytes ??= jsonByteLength(this.schema ?? {});
    return this.#bytes;
  }
}

const costs = new WeakMap<AnyRuntimeToolDefinition, MountedToolCost>();

/** The recorded cost of a tool mounted by this library, if it is one. */
export function mountedToolCost(tool: AnyRuntimeToolDefinition): MountedToolCost | undefined {
  return costs.get(tool);
}

/** Records that `connection` mounted `tool` with the input `schema` it advertises. */
export function recordMountedToolCost(
  tool: AnyRuntimeToolDefinition,
  connection: string,
  schema: unknown,
  cache?: ToolListCache,
): void {
  costs.set(tool, new RecordedCost(connection, schema, cache));
}
