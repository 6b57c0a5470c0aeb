/**
 * `mountConnections`: discovers every connection in order, then applies the mount budget. The
 * result is plain `RuntimeToolDefinition` data for `mountAgent`, `mountMcp` or stitchkit itself.
 */
import type { AnyRuntimeToolDefinition } from '../binding/index.js';
import { ConnectionBudgetExceededError } from '../wire/index.js';
import { discoverMcpTools } from './mcp-tools.js';
import { discoverOpenApiTools } from './openapi-tools.js';
import { mountedToolCost } from './tool-cost.js';
import type { ConnectionDefinition, ConnectionMountOptions, SkippedTool } from './types.js';

/** The default skip reporter: one line per skipped tool on stderr. */
export function warnSkippedTool(skipped: SkippedTool): void {
  console.warn(
    `[stitchkit-transport] connection "${skipped.connection}": tool "${skipped.tool}" not mounted (${skipped.reason}): ${skipped.message}`,
  );
}

function checkBudgetValue(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`mountConnections: ${option} must be a non-negative safe integer`);
  }
  return value;
}

function containedReporter(report: (skipped: SkippedTool) => void): (skipped: SkippedTool) => void {
  return (skipped) => {
    try {
      report(skipped);
    } catch {
      // A failing reporter must not lose the rest of the surface.
    }
  };
}

/**
 * Discovers the connections' tools, one connection after another, and returns their definitions.
 * Rejects with the first connection's failure, or with `ConnectionBudgetExceededError` when the
 * surface exceeds `budget.maxTools` or `budget.maxSchemaBytes`.
 */
export async function mountConnections(
  connections: readonly ConnectionDefinition[],
  options: ConnectionMountOptions = {},
): Promise<readonly AnyRuntimeToolDefinition[]> {
  const maxTools = checkBudgetValue('budget.maxTools', options.budget?.maxTools);
  const maxSchemaBytes = checkBudgetValue('budget.maxSchemaBytes', options.budget?.maxSchemaBytes);
  const report = containedReporter(options.onSkippedTool ?? warnSkippedTool);
  const tools: AnyRuntimeToolDefinition[] = [];
  for (const connection of connections) {
    if (connection?.kind === 'mcp') {
      tools.push(...(await discoverMcpTools(connection, report, options.observe)));
    } else if (connection?.kind === 'openapi') {
      tools.push(...(await discoverOpenApiTools(connection, report, options.observe)));
    } else {
      throw new TypeError('mountConnections accepts connections made by define…Connection');
    }
  }
  if (maxTools !== undefined && tools.length > maxTools) {
    throw new ConnectionBudgetExceededError({
      limit: maxTools,
      actual: tools.length,
      unit: 'tools',
    });
  }
  if (maxSchemaBytes !== undefined) {
    const bytes = tools.reduce((sum, tool) => sum + (mountedToolCost(tool)?.schemaBytes ?? 0), 0);
    if (bytes > maxSchemaBytes) {
      throw new ConnectionBudgetExceededError({
        limit: maxSchemaBytes,
        actual: bytes,
        unit: 'schema bytes',
      });
    }
  }
  return Object.freeze(tools);
}

/** One connection's share of a mounted catalog. */
export interface CatalogEntry {
  /** The connection's name (`(other)` for tools this library did not mount). */
  readonly connection: string;
  /** How many tools it contributes. */
  readonly tools: number;
  /** UTF-8 bytes of their input schemas, as the servers sent them. */
  readonly schemaBytes: number;
}

/** Tool count and schema bytes per connection: the schema budget, made visible. */
export function describeCatalog(tools: readonly AnyRuntimeToolDefinition[]): {
  readonly connections: readonly CatalogEntry[];
  readonly totals: { readonly tools: number; readonly schemaBytes: number };
} {
  const byConnection = new Map<string, { tools: number; schemaBytes: number }>();
  for (const tool of tools) {
    const cost = mountedToolCost(tool);
    const key = cost?.connection ?? '(other)';
    const entry = byConnection.get(key) ?? { tools: 0, schemaBytes: 0 };
    entry.tools += 1;
    entry.schemaBytes += cost?.schemaBytes ?? 0;
    byConnection.set(key, entry);
  }
  const connections = [...byConnection].map(([connection, entry]) => ({ connection, ...entry }));
  return {
    connections,
    totals: {
      tools: tools.length,
      schemaBytes: connections.reduce((sum, entry) => sum + entry.schemaBytes, 0),
    },
  };
}
