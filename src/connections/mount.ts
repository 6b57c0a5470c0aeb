/**
 * `mountConnections`: discovers every connection in order, then applies the mount budget. The
 * result is plain `RuntimeToolDefinition` data for `mountAgent`, `mountMcp` or stitchkit itself.
 */
import { checkResultBudget } from '../binding/contract/budgeted-tool.js';
import { readResultToolOf } from '../binding/contract/read-result-tool.js';
import type { AnyRuntimeToolDefinition } from '../binding/index.js';
import { type ConnectionBudget, recordMount, schemaBytesOf } from './catalog.js';
import { ConnectionBudgetExceededError, ConnectionToolNameCollisionError } from './errors.js';
import { discoverMcpTools } from './mcp-tools.js';
import { discoverOpenApiTools } from './openapi-tools.js';
import {
  type ConnectionDefinition,
  type ConnectionMountOptions,
  type DiscoveryWatch,
  isMountedDespite,
  type MountResultBudget,
  type SkippedTool,
} from './types.js';

/** The default skip reporter: one line per skipped (or mounted but unchecked) tool on stderr. */
export function warnSkippedTool(skipped: SkippedTool): void {
  const what = !isMountedDespite(skipped.reason)
    ? 'not mounted'
    : skipped.reason === 'unvalidated-input-schema'
      ? 'mounted, its arguments validated by the server only'
      : 'mounted without output checking';
  console.warn(
    `[stitchkit-transport] connection "${skipped.connection}": tool "${skipped.tool}" ${what} (${skipped.reason}): ${skipped.message}`,
  );
}

/**
 * The lines a mount prints when no `onSkippedTool` is given: one per reason a connection's tools
 * were skipped or mounted unchecked, with the count and one example, and one more when the
 * connection mounts nothing. Each report stays on `describeCatalog(tools).skipped`.
 */
export function skippedSummary(
  connection: string,
  reports: readonly SkippedTool[],
  mounted: number,
): string[] {
  const byReason = new Map<string, SkippedTool[]>();
  for (const report of reports) {
    const group = byReason.get(report.reason) ?? [];
    group.push(report);
    byReason.set(report.reason, group);
  }
  const prefix = `[stitchkit-transport] connection "${connection}"`;
  const lines = [...byReason].map(([reason, group]) => {
    const [first] = group as [SkippedTool];
    const tools = group.length === 1 ? 'tool' : 'tools';
    const what = !isMountedDespite(first.reason)
      ? `${tools} not mounted`
      : first.reason === 'unvalidated-input-schema'
        ? `${tools} mounted, arguments validated by the server only`
        : `${tools} mounted without output checking`;
    return `${prefix}: ${group.length} ${what} (${reason}), e.g. "${first.tool}": ${first.message}`;
  });
  if (mounted === 0) {
    const skipped = reports.filter((report) => !isMountedDespite(report.reason)).length;
    lines.push(
      `${prefix} mounted no tools (${skipped} skipped); pass onSkippedTool to see each, or read describeCatalog(tools).skipped`,
    );
  }
  return lines;
}

/** Throws {@link ConnectionToolNameCollisionError} for the first name two tools share. */
function refuseCollisions(tools: readonly AnyRuntimeToolDefinition[]): void {
  const owners = new Map<string, string>();
  for (const tool of tools) {
    const connection = tool.identity?.serviceName ?? '';
    const owner = owners.get(tool.name);
    if (owner !== undefined) {
      throw new ConnectionToolNameCollisionError({
        tool: tool.name,
        connections: [owner, connection],
      });
    }
    owners.set(tool.name, connection);
  }
}

/**
 * A count or period option of `where` (`mountConnections`, `watchConnections`): absent, or a
 * non-negative safe integer; anything else throws a `RangeError` naming the option.
 */
export function checkCountOption(
  where: string,
  option: string,
  value: unknown,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${where}: ${option} must be a non-negative safe integer`);
  }
  return value;
}

/** A skip reporter whose failure never loses the rest of the surface. */
export function containedReporter(
  report: (skipped: SkippedTool) => void,
): (skipped: SkippedTool) => void {
  return (skipped) => {
    try {
      report(skipped);
    } catch {
      // A failing reporter must not lose the rest of the surface.
    }
  };
}

/** A mount's options, checked once: the surface budget and the result budget each tool carries. */
export interface CheckedMountOptions {
  readonly maxTools: number | undefined;
  readonly maxSchemaBytes: number | undefined;
  readonly results: MountResultBudget;
}

/** Checks a mount's options (`budget`, `resultBudget`); a bad value throws a `RangeError`. */
export function checkMountOptions(options: ConnectionMountOptions): CheckedMountOptions {
  const maxTools = checkCountOption(
    'mountConnections',
    'budget.maxTools',
    options.budget?.maxTools,
  );
  const maxSchemaBytes = checkCountOption(
    'mountConnections',
    'budget.maxSchemaBytes',
    options.budget?.maxSchemaBytes,
  );
  const { maxTokens, spill } = checkResultBudget(
    'mountConnections: resultBudget',
    options.resultBudget,
  );
  const results: MountResultBudget = {
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(spill === undefined ? {} : { spill }),
  };
  return { maxTools, maxSchemaBytes, results };
}

/** Discovers one connection's tools; a value that is not a connection throws a `TypeError`. */
export function discoverConnection(
  connection: ConnectionDefinition,
  report: (skipped: SkippedTool) => void,
  observe: ConnectionMountOptions['observe'],
  results: MountResultBudget,
  watch?: DiscoveryWatch,
): Promise<readonly AnyRuntimeToolDefinition[]> {
  if (connection?.kind === 'mcp') {
    return discoverMcpTools(connection, report, observe, results, watch);
  }
  if (connection?.kind === 'openapi') {
    return discoverOpenApiTools(connection, report, observe, results, watch);
  }
  throw new TypeError('mountConnections accepts connections made by define…Connection');
}

/**
 * The whole mounted surface, checked: tools with its spill's `read_result` last, no name twice,
 * within the budget. Throws `ConnectionToolNameCollisionError` or `ConnectionBudgetExceededError`.
 */
export function checkedSurface(
  tools: readonly AnyRuntimeToolDefinition[],
  checked: CheckedMountOptions,
): AnyRuntimeToolDefinition[] {
  const { maxTools, maxSchemaBytes, results } = checked;
  // The model reads on in a spilled result with `read_result`, mounted beside the tools.
  const surface =
    results.spill === undefined ? [...tools] : [...tools, readResultToolOf(results.spill)];
  refuseCollisions(surface);
  if (maxTools !== undefined && surface.length > maxTools) {
    throw new ConnectionBudgetExceededError({
      limit: maxTools,
      actual: surface.length,
      unit: 'tools',
    });
  }
  if (maxSchemaBytes !== undefined) {
    const bytes = schemaBytesOf(surface);
    if (bytes > maxSchemaBytes) {
      throw new ConnectionBudgetExceededError({
        limit: maxSchemaBytes,
        actual: bytes,
        unit: 'schema bytes',
      });
    }
  }
  return surface;
}

/** The budget a catalog shows beside a mount, when one was given. */
export function mountBudgetOf(checked: CheckedMountOptions): ConnectionBudget | undefined {
  const { maxTools, maxSchemaBytes } = checked;
  if (maxTools === undefined && maxSchemaBytes === undefined) return undefined;
  return {
    ...(maxTools === undefined ? {} : { maxTools }),
    ...(maxSchemaBytes === undefined ? {} : { maxSchemaBytes }),
  };
}

/**
 * Discovers the connections' tools, one connection after another, and returns their definitions.
 * Rejects with the first connection's failure, or with `ConnectionBudgetExceededError` when the
 * surface exceeds `budget.maxTools` or `budget.maxSchemaBytes`. Each definition carries its result
 * budget (`resultBudget`, a connection's `results`); with `resultBudget.spill`, `read_result` is
 * the last definition. The returned array is a plain
 * frozen array of definitions; `describeCatalog(tools)` also lists what it skipped and why.
 */
export async function mountConnections(
  connections: readonly ConnectionDefinition[],
  options: ConnectionMountOptions = {},
): Promise<readonly AnyRuntimeToolDefinition[]> {
  const checked = checkMountOptions(options);
  // Without a reporter, a connection's reports are summed up once it is mounted (skippedSummary).
  const pending: SkippedTool[] = [];
  const reportToHost = containedReporter(
    options.onSkippedTool ?? ((entry: SkippedTool) => pending.push(entry)),
  );
  const skipped: SkippedTool[] = [];
  const report = (entry: SkippedTool): void => {
    // The catalog lists tools that are missing; a tool mounted unchecked is reported only.
    if (!isMountedDespite(entry.reason)) skipped.push(entry);
    reportToHost(entry);
  };
  const tools: AnyRuntimeToolDefinition[] = [];
  const names: string[] = [];
  for (const connection of connections) {
    if (typeof connection?.name === 'string') names.push(connection.name);
    const discovered = await discoverConnection(
      connection,
      report,
      options.observe,
      checked.results,
    );
    tools.push(...discovered);
    if (options.onSkippedTool === undefined) {
      for (const line of skippedSummary(connection.name, pending, discovered.length)) {
        console.warn(line);
      }
      pending.length = 0;
    }
  }
  const mounted = Object.freeze(checkedSurface(tools, checked));
  recordMount(mounted, {
    connections: names,
    skipped: Object.freeze(skipped),
    budget: mountBudgetOf(checked),
  });
  return mounted;
}
