/**
 * A catalog too large to show a model whole, as three ordinary tools (decision 0045):
 * `search_tools` finds tools by what the model wants done, `describe_tools` gives their input
 * schemas, and `call_tool` runs one through the canonical runner. Plain definitions, so any
 * runner (stitchkit's own `mountAgent` too) can mount them; our `mountAgent` and `mountMcp`
 * run `call_tool`'s target exactly as if it were mounted inline.
 */
import { z } from 'zod';
import type { ToolCallerHandler } from '../contract/caller.js';
import type { ToolCallHooks, ToolLifecycle } from '../contract/hooks.js';
import { READ_RESULT_TOOL_NAME } from '../contract/read-result-tool.js';
import { runTool } from '../contract/run-tool.js';
import {
  type AnyRuntimeToolDefinition,
  assertRuntimeToolDefinition,
  type McpPresentation,
  type RuntimeToolHandlerContext,
  type ToolTransport,
} from '../contract/runtime-tool.js';
import {
  CANCELLED_CODE,
  type ToolResult,
  toolCauseFromResult,
  toolErrorFromResult,
} from '../contract/tool-result.js';
import { AppError, projectToolError } from '../kernel/app-error.js';
import { isPlainObject } from '../kernel/type-guards.js';
import { firstLine, type RankedCatalog, rankCatalog } from './search-ranking.js';
import { editDistance } from './search-text.js';
import { sharedInputJsonSchema } from './tool-surface.js';

/** The names of the three meta-tools. */
export const CATALOG_TOOL_NAMES = {
  search: 'search_tools',
  describe: 'describe_tools',
  call: 'call_tool',
} as const;

/** Tools `search_tools` answers when the model names no limit (Codex and ToolHive answer 8). */
export const DEFAULT_SEARCH_LIMIT = 8;
/** The most tools one `search_tools` call answers. */
export const MAX_SEARCH_LIMIT = 20;
/** The most tools one `describe_tools` call describes. */
export const MAX_DESCRIBED_TOOLS = 10;
/** The longest one-line description `search_tools` answers, in characters. */
export const SEARCH_LINE_CHARS = 160;
/** Close matches an unknown name is answered with. */
const CLOSE_MATCHES = 3;
/** Connections `search_tools`' description names before "and N more". */
const NAMED_CONNECTIONS = 8;

/** What `search_tools` says when no tool shares a word with the query. */
const NOTHING_FOUND_HINT =
  'No tool matched. Try other words: what the tool acts on (issue, repository, user) and what it does.';

/** Options of {@link searchCatalog}. */
export interface SearchCatalogOptions {
  /** Tools `search_tools` answers when the model gives no `limit`; default 8, at most 20. */
  readonly defaultLimit?: number;
  /**
   * Observers of the calls `call_tool` runs when a runner other than ours mounts it (that runner
   * sees `call_tool`; these see the real tool). Our `mountAgent` and `mountMcp` use their own.
   */
  readonly hooks?: ToolCallHooks;
  /** The gate around those calls' handlers, as `hooks`. */
  readonly lifecycle?: ToolLifecycle;
}

/** One tool in a catalog of meta-tools, with what search ranks it by. */
interface SearchableCatalog {
  readonly tools: readonly AnyRuntimeToolDefinition[];
  readonly byName: ReadonlyMap<string, AnyRuntimeToolDefinition>;
  /** Built on the first search: a mount that never searches never pays for the index. */
  ranked(): RankedCatalog;
}

/** The catalog behind each `call_tool` definition, so our mounts can run its target inline. */
const catalogOfCallTool = new WeakMap<AnyRuntimeToolDefinition, SearchableCatalog>();

function catalogOf(tools: readonly AnyRuntimeToolDefinition[]): SearchableCatalog {
  const byName = new Map<string, AnyRuntimeToolDefinition>();
  for (const tool of tools) {
    assertRuntimeToolDefinition(tool);
    const existing = byName.get(tool.name);
    if (existing !== undefined) {
      throw new Error(
        `searchCatalog: duplicate tool name "${tool.name}": ` +
          `${existing.identity.serviceName}.${existing.identity.action}, ` +
          `${tool.identity.serviceName}.${tool.identity.action}`,
      );
    }
    byName.set(tool.name, tool);
  }
  let ranked: RankedCatalog | undefined;
  return { tools, byName, ranked: () => (ranked ??= rankCatalog(tools)) };
}

/** The one line `search_tools` shows for a tool: its title, else its description's first line. */
export function oneLineDescription(tool: AnyRuntimeToolDefinition): string {
  const line = tool.annotations?.title ?? firstLine(tool.description);
  return line.length <= SEARCH_LINE_CHARS ? line : `${line.slice(0, SEARCH_LINE_CHARS - 1)}…`;
}

/**
 * Close matches of an unknown name: a tool it names without its prefix or by its action, then
 * names a typo away (a quarter of the name's length, at least 2 edits), then tools by its words.
 */
function closeMatchesOf(catalog: SearchableCatalog, name: string): string[] {
  const limit = Math.max(2, Math.floor(name.length / 4));
  const matches = catalog.tools
    .filter((tool) => tool.name.endsWith(`__${name}`) || tool.identity.action === name)
    .map((tool) => tool.name);
  const typos = catalog.tools
    .map((tool) => ({ name: tool.name, distance: editDistance(name, tool.name, limit) }))
    .filter((entry) => entry.distance <= limit)
    .sort((a, b) => a.distance - b.distance);
  for (const typo of typos) if (!matches.includes(typo.name)) matches.push(typo.name);
  for (const hit of catalog.ranked().search(name, CLOSE_MATCHES)) {
    const match = catalog.tools[hit.index]?.name;
    if (match !== undefined && !matches.includes(match)) matches.push(match);
  }
  return matches.slice(0, CLOSE_MATCHES);
}

/** The typed answer to a name the catalog does not hold: what to use instead. */
function unknownToolError(catalog: SearchableCatalog, name: string): AppError {
  const shown = name.length <= 64 ? name : `${name.slice(0, 63)}…`;
  const closeMatches = closeMatchesOf(catalog, name);
  const message = `No tool named "${shown}" in this catalog`;
  return new AppError('NOT_FOUND', {
    message,
    status: 404,
    details: { message, name: shown, closeMatches },
    hint:
      closeMatches.length > 0
        ? `Did you mean ${closeMatches.map((match) => `"${match}"`).join(', ')}? Or search_tools to find the tool.`
        : 'Use search_tools to find the tool and its exact name.',
    retryable: false,
  });
}

/** What the model sees of a tool in `describe_tools`. */
function describedTool(tool: AnyRuntimeToolDefinition): Record<string, unknown> {
  return {
    name: tool.name,
    connection: tool.identity.serviceName,
    description: tool.description,
    inputSchema: sharedInputJsonSchema(tool),
  };
}

/** Which connections the catalog holds and how many tools each, for `search_tools`' description. */
function connectionsLine(tools: readonly AnyRuntimeToolDefinition[]): string {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    counts.set(tool.identity.serviceName, (counts.get(tool.identity.serviceName) ?? 0) + 1);
  }
  const named = [...counts]
    .slice(0, NAMED_CONNECTIONS)
    .map(([connection, count]) => `${connection} (${count})`);
  const more = counts.size - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** The transport whose presenter an inner call applies, from the outer call's source. */
function transportOfSource(source: string): ToolTransport | undefined {
  if (source === 'mcp') return 'MCP';
  if (source === 'agent') return 'AGENT';
  return undefined;
}

/** The outer call's caller, handed on to the inner call as a handler. */
function callerHandlerOf(ctx: RuntimeToolHandlerContext): ToolCallerHandler {
  const { caller } = ctx;
  return {
    capabilities: caller.capabilities,
    request: (request, options) => caller.request(request, options),
    ...(caller.takesLogs ? { log: (message) => caller.log(message) } : {}),
    ...(caller.defersInput ? { defersInput: true } : {}),
    ...(caller.answered === undefined ? {} : { answered: caller.answered }),
    ...(caller.acceptsTasks ? { acceptsTasks: true } : {}),
  };
}

const FRAMEWORK_FIELDS = new Set([
  'signal',
  'source',
  'reportProgress',
  'caller',
  'toolCallId',
  'input',
]);

/** The host's own fields of a handler context. */
function hostFieldsOf(ctx: RuntimeToolHandlerContext): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ctx)) {
    if (!FRAMEWORK_FIELDS.has(key)) fields[key] = value;
  }
  return fields;
}

const searchInput = z.object({
  query: z
    .string()
    .min(1)
    .max(500)
    .describe("What you want to do: the API's words for the thing and the act find most"),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe('How many tools'),
});
const describeInput = z.object({
  names: z.array(z.string()).min(1).max(MAX_DESCRIBED_TOOLS).describe('Tool names'),
});
const callInput = z.object({
  name: z.string().min(1).describe('The tool name'),
  arguments: z.record(z.string(), z.unknown()).optional().describe('Its input'),
});

/**
 * The meta-tools over `tools`: `search_tools` (a query and a limit; names, connection and one
 * line each, best first), `describe_tools` (names to input schemas) and `call_tool` (a name and
 * its arguments, run through `runTool`). Plain definitions: mount them with any runner. Mounted
 * by our `mountAgent` or `mountMcp`, `call_tool` runs its target as if inline (the mount's hooks,
 * lifecycle, approval and presenters see the real tool). An unknown name fails `NOT_FOUND` with
 * close matches. A `read_result` among `tools` (a result budget that spills) is returned beside
 * the three, not searched: a cut result's marker names it. Throws at once on a bad definition or
 * a duplicate name.
 */
export function searchCatalog(
  given: readonly AnyRuntimeToolDefinition[],
  options: SearchCatalogOptions = {},
): AnyRuntimeToolDefinition[] {
  // A spilled result's marker names read_result: the model must reach it without searching.
  const pinned = given.filter((tool) => tool.name === READ_RESULT_TOOL_NAME);
  const tools = given.filter((tool) => tool.name !== READ_RESULT_TOOL_NAME);
  const catalog = catalogOf(tools);
  const defaultLimit = Math.min(
    MAX_SEARCH_LIMIT,
    Math.max(1, Math.trunc(options.defaultLimit ?? DEFAULT_SEARCH_LIMIT)),
  );
  const identity = (action: string, method: 'GET' | 'POST') =>
    ({ serviceName: 'catalog', action, method }) as const;
  const search: AnyRuntimeToolDefinition = {
    name: CATALOG_TOOL_NAMES.search,
    description:
      `Finds tools in a catalog of ${tools.length} (${connectionsLine(tools)}) by what you want ` +
      'to do, in the words an API would use for the thing and the act ("cancel order" finds more ' +
      `than "stop my purchase"; add other words if unsure); answers the best ${defaultLimit} ` +
      '(or limit): name, connection, one line. ' +
      'Then describe_tools gives their input schemas, and call_tool runs one.',
    identity: identity(CATALOG_TOOL_NAMES.search, 'GET'),
    input: searchInput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: ({ input }) => {
      const { query, limit } = input as z.infer<typeof searchInput>;
      const hits = catalog.ranked().search(query, limit ?? defaultLimit);
      if (hits.length === 0) return { tools: [], hint: NOTHING_FOUND_HINT };
      return {
        tools: hits.flatMap((hit) => {
          const tool = catalog.tools[hit.index];
          return tool === undefined
            ? []
            : [
                {
                  name: tool.name,
                  connection: tool.identity.serviceName,
                  description: oneLineDescription(tool),
                },
              ];
        }),
      };
    },
  };
  const describe: AnyRuntimeToolDefinition = {
    name: CATALOG_TOOL_NAMES.describe,
    description: `Input schemas of catalog tools, by the names search_tools gave (up to ${MAX_DESCRIBED_TOOLS}).`,
    identity: identity(CATALOG_TOOL_NAMES.describe, 'GET'),
    input: describeInput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: ({ input }) => {
      const { names } = input as z.infer<typeof describeInput>;
      const known = names.flatMap((name) => {
        const tool = catalog.byName.get(name);
        return tool === undefined ? [] : [describedTool(tool)];
      });
      const unknown = names.filter((name) => !catalog.byName.has(name));
      const [first] = unknown;
      if (known.length === 0 && first !== undefined) throw unknownToolError(catalog, first);
      if (unknown.length === 0) return { tools: known };
      return {
        tools: known,
        notFound: unknown.map((name) => ({
          name,
          closeMatches: closeMatchesOf(catalog, name),
        })),
      };
    },
  };
  const call: AnyRuntimeToolDefinition = {
    name: CATALOG_TOOL_NAMES.call,
    description:
      'Runs a catalog tool by name with its arguments, as its input schema (describe_tools) says.',
    identity: identity(CATALOG_TOOL_NAMES.call, 'POST'),
    input: callInput,
    annotations: { openWorldHint: true },
    handler: async (ctx) => {
      const { name, arguments: args } = ctx.input as z.infer<typeof callInput>;
      const target = catalog.byName.get(name);
      if (target === undefined) throw unknownToolError(catalog, name);
      const reportProgress = ctx.reportProgress;
      const result = await runTool(target, args ?? {}, {
        source: ctx.source,
        signal: ctx.signal,
        context: hostFieldsOf(ctx),
        caller: callerHandlerOf(ctx),
        reportProgress,
        ...(ctx.toolCallId === undefined ? {} : { toolCallId: ctx.toolCallId }),
        ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
        ...(options.lifecycle === undefined ? {} : { lifecycle: options.lifecycle }),
        ...presentedFor(ctx.source),
      });
      if (result.ok) return result.data;
      throw innerFailure(result, ctx.signal);
    },
    present: {
      // The inner call already presented its output for this transport.
      mcp: (output) =>
        isPlainObject(output) && Array.isArray(output.content)
          ? (output as unknown as McpPresentation)
          : jsonPresentation(output),
      agent: (output) => output,
    },
  };
  catalogOfCallTool.set(call, catalog);
  return [search, describe, call, ...pinned];
}

function presentedFor(source: string): { transport?: ToolTransport } {
  const transport = transportOfSource(source);
  return transport === undefined ? {} : { transport };
}

function jsonPresentation(output: unknown): { content: { type: 'text'; text: string }[] } {
  return { content: [{ type: 'text', text: JSON.stringify(output ?? null) }] };
}

/**
 * What the outer call throws for an inner failure, so the outer runner types it alike: the
 * caller's own reason for a cancellation, the raw error when it projects itself the same way,
 * else the normalized AppError (its cause the raw error).
 */
function innerFailure(result: ToolResult, signal: AbortSignal): unknown {
  if (!result.ok && result.code === CANCELLED_CODE && signal.aborted) return signal.reason;
  const cause = toolCauseFromResult(result);
  if (projectToolError(cause) !== undefined || AppError.isInstance(cause)) return cause;
  return toolErrorFromResult(result);
}

/** Whether `definition` is the `call_tool` of a catalog {@link searchCatalog} built. */
export function isCatalogCall(definition: AnyRuntimeToolDefinition): boolean {
  return catalogOfCallTool.has(definition);
}

/**
 * The definition and arguments a mount runs for a call of `definition` with `args`: for a
 * catalog's `call_tool` naming a tool it holds, that tool and the given arguments (so hooks,
 * approval and presenters see the real tool, as inline); otherwise `definition` and `args`.
 */
export function catalogCallOf(
  definition: AnyRuntimeToolDefinition,
  args: unknown,
): { readonly definition: AnyRuntimeToolDefinition; readonly args: unknown } {
  const catalog = catalogOfCallTool.get(definition);
  if (catalog === undefined || !isPlainObject(args) || typeof args.name !== 'string') {
    return { definition, args };
  }
  const target = catalog.byName.get(args.name);
  if (target === undefined) return { definition, args };
  return { definition: target, args: args.arguments ?? {} };
}
