/**
 * The catalog of a mount: tool count and schema bytes per connection and in total (counted
 * exactly as the budget check counts them), the budget and its headroom, and the tools that were
 * skipped with their reasons. The schema budget, made visible (ADR 0180).
 */
import {
  type AnyRuntimeToolDefinition,
  inlineFootprintTokens,
  searchFootprintTokens,
} from '../binding/index.js';
import type { ToolListCache } from '../wire/index.js';
import { mountedToolCost } from './tool-cost.js';
import type { SkippedTool } from './types.js';

/** Ceilings on what a mounted surface may expose. */
export interface ConnectionBudget {
  readonly maxTools?: number;
  readonly maxSchemaBytes?: number;
}

/** One connection's share of a mounted catalog. */
export interface CatalogEntry {
  /** The connection's name (`(other)` for tools this library did not mount). */
  readonly connection: string;
  /** How many tools it contributes. */
  readonly tools: number;
  /** UTF-8 bytes of their advertised input schemas, as the budget counts them. */
  readonly schemaBytes: number;
  /** How many of its tools were skipped at mount. */
  readonly skipped: number;
  /**
   * The caching hint of the listing its tools came from (MCP 2026-07-28 `ttlMs` and
   * `cacheScope`), when the server sent one.
   */
  readonly cache?: ToolListCache;
}

/** A budget beside the figures it governs. */
export interface CatalogBudget extends ConnectionBudget {
  /** What is left under each given limit (negative when exceeded). */
  readonly headroom: { readonly tools?: number; readonly schemaBytes?: number };
}

/** What {@link describeCatalog} reports. */
export interface Catalog {
  readonly connections: readonly CatalogEntry[];
  readonly totals: {
    readonly tools: number;
    readonly schemaBytes: number;
    readonly skipped: number;
  };
  /** The budget given to `describeCatalog`, else the one the mount used; absent when neither. */
  readonly budget?: CatalogBudget;
  /** The tools the mount skipped, with their reasons (empty for a list this library did not mount). */
  readonly skipped: readonly SkippedTool[];
  /**
   * What the catalog costs a model's context, in estimated tokens (`estimateTokens`): every tool
   * shown whole (`inline`), or the search meta-tools of `searchCatalog` (`search`).
   */
  readonly footprint: { readonly inlineTokens: number; readonly searchTokens: number };
}

interface MountRecord {
  readonly connections: readonly string[];
  readonly skipped: readonly SkippedTool[];
  readonly budget: ConnectionBudget | undefined;
}

const mounts = new WeakMap<readonly AnyRuntimeToolDefinition[], MountRecord>();

/** Remembers what a mount skipped and which budget it used, keyed by the array it returned. */
export function recordMount(tools: readonly AnyRuntimeToolDefinition[], record: MountRecord): void {
  mounts.set(tools, record);
}

/** The schema bytes of `tools`, exactly as the budget check and the catalog count them. */
export function schemaBytesOf(tools: readonly AnyRuntimeToolDefinition[]): number {
  return tools.reduce((sum, tool) => sum + (mountedToolCost(tool)?.schemaBytes ?? 0), 0);
}

function headroomOf(budget: ConnectionBudget, tools: number, schemaBytes: number): CatalogBudget {
  return {
    ...budget,
    headroom: {
      ...(budget.maxTools === undefined ? {} : { tools: budget.maxTools - tools }),
      ...(budget.maxSchemaBytes === undefined
        ? {}
        : { schemaBytes: budget.maxSchemaBytes - schemaBytes }),
    },
  };
}

/**
 * Tool count, schema bytes and skipped tools per connection and in total, with the budget and its
 * headroom. For the array `mountConnections` returned, every mounted connection is listed (one
 * whose tools were all skipped too) and the skipped tools come with it.
 */
export function describeCatalog(
  tools: readonly AnyRuntimeToolDefinition[],
  options: { readonly budget?: ConnectionBudget } = {},
): Catalog {
  const mount = mounts.get(tools);
  const skipped = mount?.skipped ?? [];
  const byConnection = new Map<
    string,
    { tools: number; schemaBytes: number; skipped: number; cache?: ToolListCache }
  >();
  const entryOf = (connection: string) => {
    let entry = byConnection.get(connection);
    if (entry === undefined) {
      entry = { tools: 0, schemaBytes: 0, skipped: 0 };
      byConnection.set(connection, entry);
    }
    return entry;
  };
  for (const connection of mount?.connections ?? []) entryOf(connection);
  for (const tool of tools) {
    const cost = mountedToolCost(tool);
    const entry = entryOf(cost?.connection ?? '(other)');
    entry.tools += 1;
    entry.schemaBytes += cost?.schemaBytes ?? 0;
    if (cost?.cache !== undefined) entry.cache = cost.cache;
  }
  for (const entry of skipped) entryOf(entry.connection).skipped += 1;
  const connections = [...byConnection].map(([connection, entry]) => ({ connection, ...entry }));
  const schemaBytes = connections.reduce((sum, entry) => sum + entry.schemaBytes, 0);
  const budget = options.budget ?? mount?.budget;
  return {
    connections,
    totals: { tools: tools.length, schemaBytes, skipped: skipped.length },
    ...(budget === undefined ? {} : { budget: headroomOf(budget, tools.length, schemaBytes) }),
    skipped,
    footprint: {
      inlineTokens: inlineFootprintTokens(tools),
      searchTokens: searchFootprintTokens(tools),
    },
  };
}
