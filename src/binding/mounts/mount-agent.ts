/**
 * Mounts runtime tools as an AI-SDK-shaped ToolSet without depending on the `ai` package: the
 * input schema is a Standard Schema (with Standard JSON Schema), which the AI SDK accepts.
 */
import { agentToolErrorFromResult } from '../contract/agent-tool-error.js';
import {
  type AgentJsonValue,
  type AgentModelOutput,
  budgetAgentOutput,
  type ResultBudget,
} from '../contract/budgeted-tool.js';
import type { ToolCallerHandler } from '../contract/caller.js';
import type { ToolCallHooks, ToolLifecycle } from '../contract/hooks.js';
import { runTool } from '../contract/run-tool.js';
import type { AnyRuntimeToolDefinition } from '../contract/runtime-tool.js';
import type { JsonSchemaObject } from '../contract/zod-schema.js';
import {
  type AgentApprovalPolicy,
  type AgentNeedsApproval,
  assertApprovalPolicy,
} from './approval.js';
import { isToolCatalogSource, liveRecord, type MountableTools } from './live-tools.js';
import { isBudgeted, mountBudgetOf } from './mount-budget.js';
import { catalogCallOf, isCatalogCall } from './search-catalog.js';
import { type CatalogOptions, catalogToolsOf, needsCatalogApprovalFor } from './search-mode.js';
import { collectToolSurface, sharedInputJsonSchema } from './tool-surface.js';

/** Standard JSON Schema converter options, as the AI SDK passes them. */
export interface AgentJsonSchemaOptions {
  /** The JSON Schema dialect requested (the AI SDK asks for `draft-07`). */
  readonly target: string;
}

/**
 * A Standard Schema V1 with a Standard JSON Schema converter. Validation accepts any value as is:
 * the canonical runner validates after `beforeToolCall`, so the SDK must not validate first.
 */
export interface AgentInputSchema {
  /** The Standard Schema properties. */
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { value: unknown };
    readonly jsonSchema: {
      readonly input: (options: AgentJsonSchemaOptions) => JsonSchemaObject;
      readonly output: (options: AgentJsonSchemaOptions) => JsonSchemaObject;
    };
  };
}

/** What the AI SDK passes to `execute` (the fields this package reads). */
export interface AgentToolCallOptions {
  /** The model's id for this call; reaches every hook and the handler. */
  toolCallId: string;
  /** Aborts the call; becomes the handler's `ctx.signal`. */
  abortSignal?: AbortSignal;
  /** The messages the AI SDK passes along (`ai` 6 and 7); not read. */
  messages?: readonly unknown[];
  /** The AI SDK's user-defined context (`experimental_context`, `ai` 6); not read. */
  experimental_context?: unknown;
  /** The tool's context (`ai` 7); not read. */
  context?: unknown;
  /** The sandbox the tool runs in (`ai` 7, `experimental_sandbox`); not read. */
  experimental_sandbox?: unknown;
}

/** One tool of an {@link AgentToolSet}, shaped like an AI SDK `Tool`. */
export interface AgentTool {
  /** The tool's description for the model. */
  description: string;
  /** The input schema the model is shown. */
  inputSchema: AgentInputSchema;
  /** Runs the call through the canonical runner; rejects with an `AgentToolError` on failure. */
  execute(args: unknown, options: AgentToolCallOptions): Promise<unknown>;
  /** Present when the mount's `approval` policy may ask for approval (the AI SDK's own field). */
  needsApproval?: AgentNeedsApproval;
  /**
   * What the model receives of a successful output (the AI SDK's own field), present when a
   * result budget applies: the output cut to the budget, while `execute`'s output stays whole.
   */
  toModelOutput?: (options: { output: unknown; input?: unknown }) => AgentModelOutput;
}

/** An AI-SDK-shaped ToolSet: tool name to tool. */
export type AgentToolSet = Record<string, AgentTool>;

/** Options of {@link mountAgent}. */
export interface AgentMountOptions {
  /**
   * The definitions to mount (only those exposed on `AGENT` are), or a live catalog
   * (`watchConnections`): the tool set then follows it, each read seeing its current tools.
   */
  runtimeTools: MountableTools;
  /** Observers of every call. */
  hooks?: ToolCallHooks;
  /** The gate around every handler. */
  lifecycle?: ToolLifecycle;
  /** Host context spread into every call context. */
  context?: Readonly<Record<string, unknown>>;
  /** Which calls need the host's approval before they run; default `'none'`. */
  approval?: AgentApprovalPolicy;
  /**
   * Answers what a tool asks its caller (sampling, elicitation, roots) and receives its log
   * messages, for every call. Without it, a tool's requests to its caller get `-32601`.
   */
  caller?: ToolCallerHandler;
  /**
   * What the model may see of each result, for the definitions that carry no budget of their own
   * (those of `mountConnections` do): a token budget, and with `spill` a `read_result` tool
   * beside them. Default: no budget for those definitions.
   */
  resultBudget?: ResultBudget;
  /**
   * How the catalog is shown: `'inline'` (every tool), `'search'` (the `search_tools`,
   * `describe_tools` and `call_tool` meta-tools of `searchCatalog`, `call_tool` running its target
   * as if inline: hooks, approval, budget), or `'auto'` (default: inline up to 30 tools and
   * 10,000 estimated tokens of definitions, search above).
   */
  catalog?: CatalogOptions;
}

/**
 * Builds an AI-SDK-shaped ToolSet from the definitions exposed on `AGENT`. Success returns the
 * result data (the `present.agent` value when declared); failure throws an `AgentToolError`.
 * The AI SDK has no progress channel, so the handler's `ctx.reportProgress` is a no-op here.
 * With `approval`, calls the policy selects carry the AI SDK's `needsApproval`: the SDK then asks
 * for approval instead of executing, and a denied call never reaches the runner or the upstream.
 * A definition with a result budget (from `mountConnections`, or `resultBudget` here) answers
 * `execute` with its whole output, and the model receives it through `toModelOutput`, cut.
 * Throws at mount on a bad definition, a duplicate name (naming both sources), a bad policy or a
 * bad `resultBudget`. Given a live catalog, the returned set follows it: each read (the AI SDK
 * reads it at every step) sees the catalog's current tools, rebuilt once per change.
 */
export function mountAgent(options: AgentMountOptions): AgentToolSet {
  const approval = options.approval ?? 'none';
  assertApprovalPolicy(approval);
  const { runtimeTools } = options;
  if (!isToolCatalogSource(runtimeTools)) return buildToolSet(runtimeTools, options, approval);
  // The AI SDK reads its tool set at every step: each step sees the catalog as it is then.
  return liveRecord(runtimeTools, (tools) => buildToolSet(tools, options, approval));
}

/** The tool set of `runtimeTools` under the mount's options. */
function buildToolSet(
  runtimeTools: readonly AnyRuntimeToolDefinition[],
  options: AgentMountOptions,
  approval: AgentApprovalPolicy,
): AgentToolSet {
  const { hooks, lifecycle, context } = options;
  const budget = mountBudgetOf('mountAgent: resultBudget', runtimeTools, options.resultBudget);
  const tools: AgentToolSet = {};
  const { applied } = budget;
  // A budgeted definition's presenter is its model output (as stitchkit's mountAgent applies
  // `present.agent`): the runner returns the whole output, and the presenter shapes the model's.
  const modelOutputOf = (target: AnyRuntimeToolDefinition) =>
    isBudgeted(target)
      ? (output: unknown) => presentedModelOutput(target, output)
      : applied === undefined
        ? undefined
        : (output: unknown) => budgetAgentOutput(output, applied);
  const mounted = catalogToolsOf(budget.tools, 'AGENT', options.catalog);
  for (const definition of collectToolSurface(mounted, 'AGENT')) {
    const inputSchema = agentInputSchema(sharedInputJsonSchema(definition));
    const needsApproval = needsCatalogApprovalFor(approval, definition, context);
    const own = modelOutputOf(definition);
    // A catalog's call_tool answers as the tool it ran: that tool's budget shapes the model's view.
    const toModelOutput = isCatalogCall(definition)
      ? ({ output, input }: { output: unknown; input?: unknown }) =>
          (modelOutputOf(catalogCallOf(definition, input).definition) ?? plainModelOutput)(output)
      : own === undefined
        ? undefined
        : ({ output }: { output: unknown }) => own(output);
    tools[definition.name] = {
      ...(needsApproval === undefined ? {} : { needsApproval }),
      ...(toModelOutput === undefined ? {} : { toModelOutput }),
      description: definition.description,
      inputSchema,
      async execute(args, callOptions) {
        // A catalog's call_tool runs the tool it names exactly as if that tool were mounted here.
        const call = catalogCallOf(definition, args);
        const result = await runTool(call.definition, call.args, {
          source: 'agent',
          signal: callOptions?.abortSignal,
          toolCallId: callOptions?.toolCallId,
          context,
          hooks,
          lifecycle,
          ...(isBudgeted(call.definition) ? {} : { transport: 'AGENT' as const }),
          ...(options.caller === undefined ? {} : { caller: options.caller }),
        });
        if (result.ok) return result.data;
        throw agentToolErrorFromResult(result);
      },
    };
  }
  return tools;
}

/** What the AI SDK itself shows for an output without `toModelOutput`: text, else JSON. */
function plainModelOutput(output: unknown): AgentModelOutput {
  return typeof output === 'string'
    ? { type: 'text', value: output }
    : { type: 'json', value: (output ?? null) as AgentJsonValue };
}

/** A budgeted definition's agent presentation of `output`; a presenter that throws is reported. */
function presentedModelOutput(
  definition: AnyRuntimeToolDefinition,
  output: unknown,
): AgentModelOutput {
  try {
    return definition.present?.agent?.(output) as AgentModelOutput;
  } catch {
    return { type: 'text', value: 'The tool ran, but its result could not be presented.' };
  }
}

function agentInputSchema(jsonSchema: Readonly<JsonSchemaObject>): AgentInputSchema {
  return {
    '~standard': {
      version: 1,
      vendor: 'stitchkit-transport',
      validate: (value) => ({ value }),
      jsonSchema: {
        input: () => structuredClone(jsonSchema),
        output: () => structuredClone(jsonSchema),
      },
    },
  };
}
