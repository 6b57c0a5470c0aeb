/**
 * MCP discovery and the tools it yields: a dedicated discovery client (no principal), then one
 * `RuntimeToolDefinition` per allowed tool, each call a fresh client with the caller's credential.
 */

import type { z } from 'zod';
import { withResultBudget } from '../binding/contract/budgeted-tool.js';
import { resultBudgetTokens } from '../binding/contract/result-budget.js';
import {
  type AnyRuntimeToolDefinition,
  defineRuntimeTool,
  isCallerListening,
  isProgressListened,
  type McpPresentation,
  type RuntimeToolHandlerContext,
  TOOL_NAME_PATTERN,
  type ToolAnnotations,
} from '../binding/index.js';
import { MCP_TASK_REQUESTS } from '../binding/kernel/mcp-protocols.js';
import type { CallToolResult, Tool } from '../binding/kernel/mcp-types.js';
import { isRecord } from '../binding/kernel/type-guards.js';
import type {
  McpProgressEvent,
  McpProtocolChoice,
  McpToolList,
  McpTransportKind,
} from '../machines/mcp-operation/mcp-operation.types.js';
import type { TransitionObserver } from '../machines/observe.js';
import { prefixedToolName } from '../openapi/naming.js';
import { headerParamsOf, type McpHeaderParam, STATELESS_REVISION } from '../wire/index.js';
import { type ResolvedMcpConnection, resolveMcpConnection } from './define-mcp-connection.js';
import { runMcpOperation } from './mcp-operation-run.js';
import { checkStructuredContent, type OutputCheck, outputCheckOf } from './mcp-output-check.js';
import {
  isHeaderMismatch,
  namesUnknownTool,
  unwrapMcpResult,
  upstreamToolError,
} from './mcp-result.js';
import { taskRequesterOf } from './mcp-task-relay.js';
import { isRepeatableTool } from './run-operation.js';
import { recordMountedToolCost } from './tool-cost.js';
import { inputValidatorOf } from './tool-schema.js';
import type {
  DiscoveryWatch,
  McpClientConnection,
  MountResultBudget,
  SkippedTool,
  SpokenWire,
} from './types.js';

function isAllowed(resolved: ResolvedMcpConnection, name: string): boolean {
  return (resolved.allow === undefined || resolved.allow.has(name)) && !resolved.block.has(name);
}

/** The server's annotations, with the tool's `title` (which MCP ranks above `annotations.title`). */
function annotationsOf(tool: Tool): { annotations?: ToolAnnotations } {
  const title = tool.title ?? tool.annotations?.title;
  if (tool.annotations === undefined && title === undefined) return {};
  return { annotations: { ...tool.annotations, ...(title === undefined ? {} : { title }) } };
}

/** The MCP presentation of an upstream result: its own blocks, and its structured content. */
function presentUpstream(output: unknown): McpPresentation {
  const result = output as CallToolResult;
  if (!Array.isArray(result?.content)) {
    return { content: [{ type: 'text', text: JSON.stringify(output) }] };
  }
  const structured = result.structuredContent;
  return isRecord(structured)
    ? { content: result.content, structuredContent: structured }
    : { content: result.content };
}

/** The progress listener of a call, when the call asks the upstream for progress at all. */
function progressRelay(
  context: RuntimeToolHandlerContext,
  extendsDeadline: boolean,
): { onProgress?: (report: McpProgressEvent) => void } {
  const listened = isProgressListened(context);
  if (!listened && !extendsDeadline) return {};
  return {
    onProgress: (report) => {
      if (listened) void context.reportProgress(report.progress, report.total, report.message);
    },
  };
}

function buildTool(
  connection: McpClientConnection,
  resolved: ResolvedMcpConnection,
  plan: ToolPlan,
  observe: TransitionObserver | undefined,
  watch: DiscoveryWatch | undefined,
): AnyRuntimeToolDefinition {
  const { tool, input, output, revision } = plan;
  // The server's own name, which every request sends; the mounted one may carry a prefix.
  const name = tool.name;
  const repeatable = isRepeatableTool(tool.annotations);
  const definition = defineRuntimeTool({
    name: resolved.prefix === undefined ? name : prefixedToolName(resolved.prefix, name),
    description: tool.description ?? `External MCP tool "${name}"`,
    identity: { serviceName: resolved.name, action: name, method: 'POST' },
    input,
    // Advertised as the server wrote it ($schema, $defs, formats, 2020-12 keywords), not as a
    // zod round trip; zod only validates.
    inputJsonSchema: tool.inputSchema,
    transports: resolved.transports,
    handler: async (context) => {
      watch?.toolUsed();
      const call = (mirrored: readonly McpHeaderParam[]) =>
        runMcpOperation(connection, resolved, {
          request: {
            method: 'tools/call',
            params: { name, arguments: { ...(context.input as Record<string, unknown>) } },
            ...(mirrored.length === 0 ? {} : { headerParams: mirrored }),
            // The task is asked to be kept as long as the call waits for it.
            ...(plan.asTask ? { task: { ttlMs: resolved.limits.task.timeoutMs } } : {}),
          },
          context,
          signal: context.signal,
          protocolVersion: revision.protocolVersion,
          discovered: revision.discovered,
          repeatable,
          ...(observe === undefined ? {} : { observe }),
          // Ask the upstream for progress only when someone listens, or when progress extends
          // the call's deadline (`maxTotalTimeoutMs`).
          ...progressRelay(context, resolved.limits.call.maxTotalTimeoutMs !== undefined),
          // The upstream's requests for the caller, and its log messages, reach the caller only
          // when it can receive them; otherwise the call stays on the fast path.
          ...(isCallerListening(context.caller) ? { relay: context.caller } : {}),
        });
      let outcome: Awaited<ReturnType<typeof call>>;
      try {
        outcome = await call(plan.headerParams);
      } catch (error) {
        const mismatch = isHeaderMismatch(error);
        // The listing this tool came from is stale: a live catalog lists the connection again.
        if (mismatch || namesUnknownTool(error, name)) watch?.listingStale(name);
        // -32020: the headers and the body disagree, so the schema held here is stale. List the
        // tools again once, and call once more with the headers the server now annotates.
        if (!mismatch) throw error;
        const fresh = await relistedHeaderParams(connection, resolved, name, revision, observe);
        if (fresh === undefined) throw error;
        plan.headerParams = fresh;
        outcome = await call(fresh);
      }
      // A call that switched to the other revision leaves its revision for the calls after it.
      if (revision.discovered) revision.protocolVersion = revisionOf(outcome.protocolVersion);
      const result = outcome.result as CallToolResult;
      if (result.isError === true) {
        if (namesUnknownTool(result, name)) watch?.listingStale(name);
        throw upstreamToolError(name, result);
      }
      if (output !== undefined) await checkStructuredContent(output, result, name, resolved.name);
      return context.source === 'cli' ? unwrapMcpResult(result) : result;
    },
    present: {
      // Relay the server's own content blocks (and structured content) to MCP clients instead of
      // re-encoding them as JSON.
      mcp: presentUpstream,
    },
    ...(output === undefined ? {} : { outputJsonSchema: output.jsonSchema }),
    ...annotationsOf(tool),
  });
  // A gateway whose client takes tasks relays this tool's upstream tasks through its requester.
  return Object.assign(definition, {
    [MCP_TASK_REQUESTS]: taskRequesterOf(connection, resolved, observe),
  });
}

/**
 * The header annotations of tool `name` as the server lists them now, for one retry after a
 * `-32020`; `undefined` when the tool is gone or its annotations are no longer valid.
 */
async function relistedHeaderParams(
  connection: McpClientConnection,
  resolved: ResolvedMcpConnection,
  name: string,
  revision: DiscoveredRevision,
  observe: TransitionObserver | undefined,
): Promise<readonly McpHeaderParam[] | undefined> {
  const listing = await runMcpOperation(connection, resolved, {
    request: { method: 'tools/list' },
    protocolVersion: revision.protocolVersion,
    discovered: revision.discovered,
    ...(observe === undefined ? {} : { observe }),
  });
  const tool = (listing.result as McpToolList).tools.find((candidate) => candidate.name === name);
  const headers = tool === undefined ? undefined : headerParamsOf(tool.inputSchema);
  return headers === undefined || 'invalid' in headers ? undefined : headers.params;
}

/**
 * The revision a connection's calls speak, shared by the tools of one discovery: what discovery
 * spoke, so a call sends nothing but itself (one POST to a 2026-07-28 server, the 2025 handshake and
 * the call to a 2025 one). A connection pinned to a revision keeps it; one that probed holds a
 * revision an answer may contradict once, inside that call, and the call's revision is the next
 * call's revision.
 */
interface DiscoveredRevision {
  protocolVersion: McpProtocolChoice;
  readonly discovered: boolean;
}

/** What discovery learned of one tool, for its definition. */
interface ToolPlan {
  readonly tool: Tool;
  /** Validates the tool's input. */
  readonly input: z.ZodObject;
  /** The `Mcp-Param-*` headers its calls mirror; replaced once a `-32020` re-list finds newer ones. */
  headerParams: readonly McpHeaderParam[];
  /** Checks its structured output, when it has an `outputSchema` that converts. */
  readonly output: OutputCheck | undefined;
  /** The revision its calls speak, shared by the tools of one discovery. */
  readonly revision: DiscoveredRevision;
  /** 2025-11-25: its calls ask for a task (`params.task`). */
  readonly asTask: boolean;
}

/** The revision of a negotiated version: the stateless revision, or 2025-11-25 for every 2025 one. */
function revisionOf(spoken: string): McpProtocolChoice {
  return spoken === STATELESS_REVISION ? STATELESS_REVISION : '2025-11-25';
}

function verdictOf(resolved: ResolvedMcpConnection, spoken: string): DiscoveredRevision {
  return resolved.protocolChoice === 'auto'
    ? { protocolVersion: revisionOf(spoken), discovered: true }
    : { protocolVersion: resolved.protocolChoice, discovered: false };
}

/**
 * Discovers one MCP connection's tools with a dedicated client (token provider called with no
 * context) and builds their definitions, each with its result budget baked into its presenters.
 * A tool that cannot be built is reported, not fatal.
 */
export async function discoverMcpTools(
  connection: McpClientConnection,
  report: (skipped: SkippedTool) => void,
  observe?: TransitionObserver,
  budget: MountResultBudget = {},
  watch?: DiscoveryWatch,
): Promise<AnyRuntimeToolDefinition[]> {
  const resolved = resolveMcpConnection(connection);
  const outcome = await runMcpOperation(connection, resolved, {
    request: { method: 'tools/list' },
    ...(observe === undefined ? {} : { observe }),
    ...(watch?.signal === undefined ? {} : { signal: watch.signal }),
    ...spokenAgain(resolved, watch?.spoken),
  });
  const list = outcome.result as McpToolList;
  watch?.listed(list.cache, {
    protocolVersion: outcome.protocolVersion,
    transport: outcome.transport,
  });
  const revision = verdictOf(resolved, outcome.protocolVersion);
  for (const rejected of list.rejected) {
    report({
      connection: resolved.name,
      tool: rejected.name ?? '',
      reason: 'invalid-tool',
      message: rejected.message,
    });
  }
  const tools: AnyRuntimeToolDefinition[] = [];
  for (const tool of list.tools) {
    if (!isAllowed(resolved, tool.name)) continue;
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      report({
        connection: resolved.name,
        tool: tool.name,
        reason: 'invalid-name',
        message: 'tool names must match [A-Za-z0-9_-]{1,64} to be callable by models',
      });
      continue;
    }
    // How a 2025 tool is called by its `execution.taskSupport` and the server's offer (decision
    // 0042); a tool that runs only as a task cannot be called where the server offers no tasks.
    const asTask = taskCallOf(tool, revision, outcome.tasksOffered, resolved.optionalTasks);
    if (asTask === undefined) {
      report({
        connection: resolved.name,
        tool: tool.name,
        reason: 'requires-task',
        message:
          'the tool runs only as a task (execution.taskSupport "required"), and the server does not offer task-augmented calls (capabilities.tasks.requests.tools.call)',
      });
      continue;
    }
    const headers = headerParamsOf(tool.inputSchema);
    if ('invalid' in headers) {
      report({
        connection: resolved.name,
        tool: tool.name,
        reason: 'invalid-header-annotation',
        message: headers.invalid,
      });
      continue;
    }
    const output = outputCheckOf(tool);
    try {
      const input = inputValidatorOf(tool.inputSchema);
      const plan: ToolPlan = {
        tool,
        input: input.schema,
        headerParams: headers.params,
        output: output.check,
        revision,
        asTask,
      };
      // The tool's own `anthropic/maxResultSizeChars` raises the connection's or the mount's budget.
      const definition = withResultBudget(buildTool(connection, resolved, plan, observe, watch), {
        maxTokens: resultBudgetTokens(tool, connection.results?.maxTokens ?? budget.maxTokens),
        ...(budget.spill === undefined ? {} : { spill: budget.spill }),
      });
      recordMountedToolCost(definition, resolved.name, tool.inputSchema, list.cache);
      tools.push(definition);
      // Reported only once the tool is known to mount; a skipped tool has its own report.
      if (input.unvalidated !== undefined) {
        report({
          connection: resolved.name,
          tool: tool.name,
          reason: 'unvalidated-input-schema',
          message: input.unvalidated,
        });
      }
      if (output.unconvertible !== undefined) {
        report({
          connection: resolved.name,
          tool: tool.name,
          reason: 'unconvertible-output-schema',
          message: output.unconvertible,
        });
      }
    } catch (error) {
      report({
        connection: resolved.name,
        tool: tool.name,
        reason: 'unconvertible-schema',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return tools;
}

/**
 * Whether a tool's calls ask for a task: on 2025-11-25 a `required` tool always does and an
 * `optional` one when the connection says `tasks.optional: 'task'`, both only where the server
 * offers task-augmented calls; `undefined` for a `required` tool where it does not (it cannot be
 * called). On 2026-07-28 the server decides, so no call asks (the extension is declared on each).
 */
function taskCallOf(
  tool: Tool,
  revision: DiscoveredRevision,
  offered: boolean,
  optional: 'plain' | 'task',
): boolean | undefined {
  const execution = (tool as { execution?: unknown }).execution;
  const support = isRecord(execution) ? execution.taskSupport : undefined;
  if (revision.protocolVersion === STATELESS_REVISION) return false;
  if (support === 'required') return offered ? true : undefined;
  return support === 'optional' && offered && optional === 'task';
}

/**
 * How a relisting speaks: the revision and transport the connection's previous listing settled,
 * where the connection lets discovery choose them (a revision an answer may still contradict).
 */
function spokenAgain(
  resolved: ResolvedMcpConnection,
  spoken: SpokenWire | undefined,
): Partial<DiscoveredRevision> & { transportType?: McpTransportKind } {
  if (spoken === undefined) return {};
  // The revision the tools' calls speak (`verdictOf`); a pinned one is what a listing speaks anyway.
  const revision = verdictOf(resolved, spoken.protocolVersion);
  return resolved.transportType === 'auto'
    ? { transportType: spoken.transport, ...revision }
    : revision;
}
