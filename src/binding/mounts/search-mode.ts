/**
 * When a mount shows a model its tools whole and when it shows the search meta-tools instead,
 * and what each costs the model's context (decision 0045). `'auto'` keeps a catalog inline up
 * to 30 tools and 10,000 estimated tokens of definitions, the line MCPJam's inspector draws and
 * Anthropic's tool-search guidance gives; above either, search. Pure: no I/O.
 */
import { estimateTokens } from '../contract/estimate-tokens.js';
import type { AnyRuntimeToolDefinition } from '../contract/runtime-tool.js';
import { type AgentApprovalPolicy, type AgentNeedsApproval, needsApprovalFor } from './approval.js';
import {
  catalogCallOf,
  isCatalogCall,
  type SearchCatalogOptions,
  searchCatalog,
} from './search-catalog.js';
import {
  type AdvertisedTransport,
  collectToolSurface,
  sharedInputJsonSchema,
} from './tool-surface.js';

/** How a mount shows its catalog: every tool, the search meta-tools, or by size. */
export type CatalogMode = 'inline' | 'search' | 'auto';

/** The `catalog` option of `mountAgent` and `mountMcp`. */
export interface CatalogOptions extends SearchCatalogOptions {
  /** `'inline'`, `'search'` or `'auto'` (default: inline up to 30 tools and 10,000 tokens). */
  readonly mode?: CatalogMode;
}

/** The most tools `'auto'` keeps inline. */
export const AUTO_INLINE_MAX_TOOLS = 30;
/** The most estimated tokens of tool definitions `'auto'` keeps inline. */
export const AUTO_INLINE_MAX_TOKENS = 10_000;

/** Estimated tokens of a tool as a model is shown it: name, description and input schema. */
export function definitionTokens(tool: AnyRuntimeToolDefinition): number {
  return estimateTokens({
    name: tool.name,
    description: tool.description,
    input_schema: sharedInputJsonSchema(tool),
  });
}

/** Estimated tokens of `tools` shown whole. */
export function inlineFootprintTokens(tools: readonly AnyRuntimeToolDefinition[]): number {
  let tokens = 0;
  for (const tool of tools) tokens += definitionTokens(tool);
  return tokens;
}

/**
 * Estimated tokens of the search meta-tools over `tools`, as the model sees them. A diagnostic:
 * a name given twice is counted once rather than refused.
 */
export function searchFootprintTokens(tools: readonly AnyRuntimeToolDefinition[]): number {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return inlineFootprintTokens(searchCatalog([...byName.values()]));
}

/** Whether `'auto'` shows `tools` whole: at most 30 tools and 10,000 estimated tokens. */
export function fitsInline(tools: readonly AnyRuntimeToolDefinition[]): boolean {
  if (tools.length > AUTO_INLINE_MAX_TOOLS) return false;
  return inlineFootprintTokens(tools) <= AUTO_INLINE_MAX_TOKENS;
}

/** The meta-tools built for a frozen tools array, so a gateway mounting it per request builds once. */
const builtCatalogs = new WeakMap<
  readonly AnyRuntimeToolDefinition[],
  {
    readonly key: string;
    readonly options: CatalogOptions | undefined;
    readonly tools: readonly AnyRuntimeToolDefinition[];
  }
>();

/**
 * What a mount on `transport` shows for `tools` under `catalog`: `tools` itself (inline), or the
 * search meta-tools over the tools exposed on `transport`, frozen (and built once per frozen
 * `tools` and options). Throws a `TypeError` on an unknown mode, and as the mount would on a bad
 * definition or a duplicate name.
 */
export function catalogToolsOf(
  tools: readonly AnyRuntimeToolDefinition[],
  transport: AdvertisedTransport,
  catalog: CatalogOptions | undefined,
): readonly AnyRuntimeToolDefinition[] {
  const mode = catalog?.mode ?? 'auto';
  if (mode !== 'inline' && mode !== 'search' && mode !== 'auto') {
    throw new TypeError(`catalog.mode must be 'inline', 'search' or 'auto' (got ${String(mode)})`);
  }
  if (mode === 'inline') return tools;
  const key = `${transport} ${mode}`;
  const known = builtCatalogs.get(tools);
  if (known !== undefined && known.key === key && known.options === catalog) return known.tools;
  const surface = collectToolSurface(tools, transport);
  if (mode === 'auto' && fitsInline(surface)) return tools;
  const built = Object.freeze(searchCatalog(surface, catalog));
  if (Object.isFrozen(tools)) builtCatalogs.set(tools, { key, options: catalog, tools: built });
  return built;
}

/**
 * Whether a call of `definition` needs approval under `policy`, as `needsApprovalFor` says; for
 * a catalog's `call_tool`, what the tool it names needs, asked per call with that tool's own
 * arguments (a policy that asks for `deploy` asks for `call_tool` of `deploy`).
 */
export function needsCatalogApprovalFor(
  policy: AgentApprovalPolicy,
  definition: AnyRuntimeToolDefinition,
  context: Readonly<Record<string, unknown>> | undefined,
): AgentNeedsApproval | undefined {
  if (policy === 'none') return undefined;
  if (!isCatalogCall(definition)) return needsApprovalFor(policy, definition, context);
  return async (input) => {
    const call = catalogCallOf(definition, input);
    // An unknown name runs nothing: the call fails NOT_FOUND without asking anyone.
    if (call.definition === definition) return false;
    const verdict = needsApprovalFor(policy, call.definition, context);
    if (verdict === undefined) return false;
    return typeof verdict === 'boolean' ? verdict : verdict(call.args);
  };
}
