/**
 * Registers runtime tools on an SDK `McpServer`. Every call runs through the canonical runner;
 * the MCP wire shape is JSON text (+ structuredContent) on success, the safe envelope on failure.
 */
import { z } from 'zod';
import { type ResultBudget, withResultBudget } from '../contract/budgeted-tool.js';
import type { ToolCallerAnswered, ToolCallerHandler, ToolLogMessage } from '../contract/caller.js';
import type { ToolCallHooks, ToolLifecycle } from '../contract/hooks.js';
import { runTool, toolCallContextOf } from '../contract/run-tool.js';
import type { AnyRuntimeToolDefinition, ToolProgressReporter } from '../contract/runtime-tool.js';
import {
  type ToolFailure,
  type ToolResult,
  toolCauseFromResult,
  toolErrorEnvelope,
  toolResultFromError,
} from '../contract/tool-result.js';
import type { JsonSchemaObject } from '../contract/zod-schema.js';
import { AppError } from '../kernel/app-error.js';
import {
  mcpCreatedTaskOf,
  mcpErrorPresentationOf,
  mcpInputRequestOf,
} from '../kernel/mcp-protocols.js';
import type { CallToolResult, McpCallPresentation } from '../kernel/mcp-types.js';
import { inRemoteContext } from '../kernel/otel-api.js';
import { MAX_TIMER_MS } from '../kernel/timers.js';
import { isRecord } from '../kernel/type-guards.js';
import { missingCapabilityRefusal } from './gateway-capabilities.js';
import {
  type GatewayRequestState,
  type GatewayStateCodec,
  gatewayStateCodecOf,
} from './gateway-state.js';
import { createTaskRelay, type TaskRelay } from './gateway-tasks.js';
import { followCatalog, isToolCatalogSource, type MountableTools } from './live-tools.js';
import {
  type McpHandlerRequest,
  type McpToolRegistration,
  type McpToolServer,
  mcpHandlerRequestOf,
} from './mcp-request.js';
import { isBudgeted, mountBudgetOf } from './mount-budget.js';
import { catalogCallOf } from './search-catalog.js';
import { type CatalogOptions, catalogToolsOf } from './search-mode.js';
import { collectToolSurface, sharedInputJsonSchema, toolOutputJsonSchema } from './tool-surface.js';

/** Options of {@link mountMcp}. */
export interface McpMountOptions {
  /** Observers of every call. */
  hooks?: ToolCallHooks;
  /** The gate around every handler. */
  lifecycle?: ToolLifecycle;
  /** Host context spread into every call context. */
  context?: Readonly<Record<string, unknown>>;
  /**
   * Seals the `requestState` of the `input_required` answers given to MCP 2026-07-28 clients
   * (from {@link createGatewayRequestState}). A v2 `McpServer` must be created with it
   * (`new McpServer(info, { requestState })`), so that a bad state is refused before the tool
   * runs; given here too, it must be that same codec. Default: the codec the server verifies with.
   */
  requestState?: GatewayRequestState;
  /**
   * What the client's model may see of each result, for the definitions that carry no budget of
   * their own (those of `mountConnections` do): their MCP presentation is cut to it, and with
   * `spill` a `read_result` tool is registered beside them. Default: no budget for those.
   */
  resultBudget?: ResultBudget;
  /**
   * How the catalog is listed: `'inline'` (every tool), `'search'` (the `search_tools`,
   * `describe_tools` and `call_tool` meta-tools of `searchCatalog`, `call_tool` running its target
   * as if inline), or `'auto'` (default: inline up to 30 tools and 10,000 estimated tokens of
   * definitions, search above).
   */
  catalog?: CatalogOptions;
}

/**
 * Registers each definition exposed on `MCP` on `server`, an `McpServer` of either SDK line (v1
 * `@modelcontextprotocol/sdk` or v2 `@modelcontextprotocol/server`). tools/list shows the input's JSON
 * Schema, and the output's for a definition that declares `outputJsonSchema` (its successful
 * results must then carry `structuredContent`; one without is answered `INTERNAL_SERVER_ERROR`,
 * since the SDK server and its clients would refuse it); the handler's signal follows MCP
 * cancellation, `ctx.reportProgress` sends `notifications/progress` only when the request carries
 * a `progressToken`, and `ctx.caller` is the client that sent the call: what it declared
 * (sampling, elicitation, roots) is asked on the call's own stream, and log messages go out as
 * notifications of the call (when `server` declares `logging`). An MCP 2026-07-28 client, which has
 * no server-to-client requests, gets an upstream's questions as `input_required` with the
 * upstream's state sealed (`requestState`), and its retry's answers go upstream (to the same task
 * when a task asked). On a v2 server whose definitions include an MCP connection's, the tasks
 * extension is declared: a 2026 client that declares it gets an upstream's task under an id the
 * gateway seals, and its `tasks/get`, `tasks/update` and `tasks/cancel` are forwarded upstream
 * (decision 0050). Throws at mount on a
 * bad definition or a duplicate name (naming both sources), and with `GatewayStateError` on
 * a v2 server whose `requestState` seam is not the gateway's codec (its message says what to
 * pass); the SDK itself refuses a name already registered. Given a live catalog
 * (`watchConnections`), the server's tools follow it until the server closes: each change
 * registers and removes tools, and the SDK server tells its 2025 client the list changed.
 */
export function mountMcp(
  server: McpToolServer,
  runtimeTools: MountableTools,
  options: McpMountOptions = {},
): void {
  // Undefined on a server with no state seam: the mount then mints no state and accepts none.
  const states = gatewayStateCodecOf(server, options.requestState);
  const toolsOf = () =>
    budgetedTools(
      isToolCatalogSource(runtimeTools) ? runtimeTools.tools() : runtimeTools,
      options.resultBudget,
    );
  // Upstream tasks are relayed to the clients that declare the extension (decision 0050).
  const tasks =
    states === undefined
      ? undefined
      : createTaskRelay(server, states, {
          tools: toolsOf,
          contextOf: (signal) =>
            toolCallContextOf({ context: options.context, source: 'mcp' }, signal),
        });
  const surfaceOf = (tools: readonly AnyRuntimeToolDefinition[]) =>
    registrationsOf(
      catalogToolsOf(budgetedTools(tools, options.resultBudget), 'MCP', options.catalog),
    );
  const register = (registration: Registration): unknown =>
    server.registerTool(
      registration.definition.name,
      registration.config,
      toolHandler(server, registration, { states, tasks }, options),
    );
  if (!isToolCatalogSource(runtimeTools)) {
    for (const registration of surfaceOf(runtimeTools)) register(registration);
    return;
  }
  followCatalog(server, runtimeTools, surfaceOf, register);
}

/** The handler the SDK server calls for one registered definition. */
function toolHandler(
  server: McpToolServer,
  registration: Registration,
  { states, tasks }: { states: GatewayStateCodec | undefined; tasks: TaskRelay | undefined },
  options: McpMountOptions,
) {
  const { definition, outputJsonSchema } = registration;
  const { hooks, lifecycle, context } = options;
  return async (args: Record<string, unknown>, extra: unknown) => {
    const request = mcpHandlerRequestOf(server, extra);
    const answered = answeredOf(request, states, definition.name, args);
    if (answered === false) return errorResult(toolResultFromError(STALE_STATE));
    const reportProgress = mcpProgressSender(request);
    // A catalog's call_tool runs the tool it names exactly as if that tool were mounted here.
    const call = catalogCallOf(definition, args);
    // A client that declared the tasks extension takes the upstream's task itself.
    const requester = tasks?.requesterFor(call.definition, request, outputJsonSchema !== undefined);
    // The client's trace continues through the tool: its upstream calls' spans are children.
    const result = await inRemoteContext(request.meta, () =>
      runTool(call.definition, call.args, {
        source: 'mcp',
        signal: request.signal,
        toolCallId: request.id,
        context,
        hooks,
        lifecycle,
        transport: 'MCP',
        caller: mcpCallerOf(request, answered, requester !== undefined),
        ...(reportProgress === undefined ? {} : { reportProgress }),
      }),
    );
    // The upstream needs a capability this 2026 client never declared: refuse it alike (-32021).
    const refusal = request.stateless ? missingCapabilityRefusal(result, request) : undefined;
    if (refusal !== undefined) return refusal;
    // The upstream runs the call as a task: the client gets it, under the gateway's sealed id.
    const created =
      requester === undefined || result.ok
        ? undefined
        : mcpCreatedTaskOf(toolCauseFromResult(result));
    if (created !== undefined && tasks !== undefined && requester !== undefined) {
      return tasks.answer(created, call.definition.name, request, requester);
    }
    // The upstream asks a 2026 client something: answer `input_required`, its state wrapped.
    const asked = result.ok ? undefined : mcpInputRequestOf(toolCauseFromResult(result));
    if (asked !== undefined) {
      if (states === undefined) return errorResult(toolResultFromError(UNSEALED_GATEWAY));
      return {
        resultType: 'input_required',
        inputRequests: asked.inputRequests,
        requestState: states.mint(definition.name, args, asked.requestState, {
          taskId: asked.taskId,
          owner: request.owner,
        }),
      };
    }
    return toCallToolResult(result, outputJsonSchema !== undefined);
  };
}

/**
 * `runtimeTools` with the mount's `resultBudget` baked into each definition that has none, and
 * `read_result` beside them when results spill; `runtimeTools` itself without a budget.
 */
function budgetedTools(
  runtimeTools: readonly AnyRuntimeToolDefinition[],
  resultBudget: ResultBudget | undefined,
): readonly AnyRuntimeToolDefinition[] {
  if (resultBudget === undefined) return runtimeTools;
  const known = budgeted.get(runtimeTools)?.get(resultBudget);
  if (known !== undefined) return known;
  const { tools, applied } = mountBudgetOf('mountMcp: resultBudget', runtimeTools, resultBudget);
  const built = tools.map((definition) =>
    applied === undefined || isBudgeted(definition)
      ? definition
      : withResultBudget(definition, applied),
  );
  // A frozen array mounted on a server per request is budgeted (and registered) once.
  if (!Object.isFrozen(runtimeTools)) return built;
  const frozen = Object.freeze(built);
  const byBudget = budgeted.get(runtimeTools) ?? new WeakMap();
  byBudget.set(resultBudget, frozen);
  budgeted.set(runtimeTools, byBudget);
  return frozen;
}

const budgeted = new WeakMap<
  readonly AnyRuntimeToolDefinition[],
  WeakMap<ResultBudget, readonly AnyRuntimeToolDefinition[]>
>();

/** What `mountMcp` registers for one definition, the same on every server it mounts on. */
interface Registration {
  readonly definition: AnyRuntimeToolDefinition;
  readonly config: McpToolRegistration;
  readonly outputJsonSchema: Readonly<JsonSchemaObject> | undefined;
}

/**
 * The checked surface and the registration of each definition, computed once per frozen tools
 * array (what `mountConnections` returns): a v2 gateway builds an `McpServer` per request
 * (`createMcpHandler`'s factory) and mounts the same tools on each. An array that may still
 * change is checked again on every mount.
 */
const registrations = new WeakMap<readonly AnyRuntimeToolDefinition[], readonly Registration[]>();

function registrationsOf(
  runtimeTools: readonly AnyRuntimeToolDefinition[],
): readonly Registration[] {
  const known = registrations.get(runtimeTools);
  if (known !== undefined) return known;
  const built = collectToolSurface(runtimeTools, 'MCP').map((definition): Registration => {
    const outputJsonSchema = toolOutputJsonSchema(definition);
    const config = {
      description: definition.description,
      inputSchema: advertisedPassThroughSchema(sharedInputJsonSchema(definition)),
      // The SDK server then demands structuredContent (any object passes the pass-through).
      ...(outputJsonSchema === undefined
        ? {}
        : { outputSchema: advertisedPassThroughSchema(outputJsonSchema) }),
      ...(definition.annotations?.title === undefined
        ? {}
        : { title: definition.annotations.title }),
      ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
    };
    return { definition, config, outputJsonSchema };
  });
  if (Object.isFrozen(runtimeTools)) registrations.set(runtimeTools, built);
  return built;
}

/**
 * Sends `notifications/progress` for the request, tied to it by its `progressToken`; `undefined`
 * when the request carries none (then nothing is ever sent and `ctx.reportProgress` is a no-op).
 */
function mcpProgressSender(request: McpHandlerRequest): ToolProgressReporter | undefined {
  const { progressToken } = request;
  if (progressToken === undefined) return undefined;
  return (progress, total, message) =>
    request.notify({
      method: 'notifications/progress',
      params: {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      },
    });
}

/** The SDK's own 60 s default must not cut a human's answer: the call's signal bounds it instead. */
const UNBOUNDED_BY_SDK_MS = MAX_TIMER_MS;

/**
 * The MCP client behind the call as the call's caller: what it declared (in its `initialize` on
 * 2025-11-25, in the request's `_meta` on 2026-07-28), requests sent on the call's own stream and
 * bounded by the call's signal rather than the SDK's timeout (2025 only: 2026 has no
 * server-to-client requests), and log messages at the level the client asked for.
 */
function mcpCallerOf(
  request: McpHandlerRequest,
  answered: ToolCallerAnswered | undefined,
  acceptsTasks: boolean,
): ToolCallerHandler {
  const { send } = request;
  return {
    ...(acceptsTasks ? { acceptsTasks: true } : {}),
    // As the client declared them; the runner keeps only sampling, elicitation and roots.
    capabilities: isRecord(request.clientCapabilities) ? request.clientCapabilities : {},
    // A 2026 client answers by sending the call again: the upstream's questions end this attempt.
    ...(request.stateless ? { defersInput: true } : {}),
    ...(answered === undefined ? {} : { answered }),
    ...(send === undefined
      ? {}
      : {
          request: (asked, { signal }) => send(asked, { signal, timeout: UNBOUNDED_BY_SDK_MS }),
        }),
    // A 2026 request that asks for no log level gets none, so none is asked of the upstream.
    ...(request.takesLogs ? { log: (message: ToolLogMessage) => request.log(message) } : {}),
  };
}

/** A retry whose state was not minted for this tool and these arguments, or has expired. */
const STALE_STATE = new AppError('INVALID_REQUEST_STATE', {
  message: 'The requestState is not one this gateway minted for this call, or it has expired.',
  status: 400,
  retryable: false,
});

/**
 * An upstream asked a 2026 client something, but the server's seam verifies no state (one whose
 * seam the mount cannot see), so no state is minted that it would have to trust.
 */
const UNSEALED_GATEWAY = new AppError('GATEWAY_STATE_UNSEALED', {
  message: 'This gateway cannot carry an input round: its MCP server verifies no request state.',
  status: 500,
  retryable: false,
});

/**
 * The answers a 2026 retry brings, with the upstream's state unwrapped from the gateway's;
 * `undefined` for a first attempt, `false` for a state that fails verification (every state,
 * when the server's seam verifies none).
 */
function answeredOf(
  request: McpHandlerRequest,
  states: GatewayStateCodec | undefined,
  tool: string,
  args: unknown,
): ToolCallerAnswered | undefined | false {
  if (!request.stateless) return undefined;
  const { inputResponses, requestState } = request;
  if (requestState === undefined) {
    return inputResponses === undefined ? undefined : { inputResponses };
  }
  if (states === undefined) return false;
  const opened = states.open(requestState, tool, args, request.owner);
  if (opened === false) return false;
  // A task's questions: the answers go to that task (decision 0051).
  return {
    inputResponses: inputResponses ?? {},
    ...(opened.upstream === undefined ? {} : { requestState: opened.upstream }),
    ...(opened.taskId === undefined ? {} : { taskId: opened.taskId }),
  };
}

// The SDK validates before our callback (ahead of beforeToolCall, with its own error text), so we
// register a pass-through object and advertise the real schema via zod's `toJSONSchema` override.
function advertisedPassThroughSchema(jsonSchema: Readonly<JsonSchemaObject>): z.ZodObject {
  const schema = z.looseObject({});
  schema._zod.toJSONSchema = () => structuredClone(jsonSchema);
  return schema;
}

/**
 * Maps a runner result onto the MCP tool-call result. A tool that advertises an output schema and
 * presents no structured content is a server fault, answered with the safe envelope.
 */
function toCallToolResult(result: ToolResult, needsStructured: boolean): CallToolResult {
  if (result.ok) {
    const presented = result.data as McpCallPresentation;
    if (!needsStructured || presented.structuredContent !== undefined) return presented;
    return errorResult(
      toolResultFromError(new Error('tool with an outputSchema presented no structuredContent')),
    );
  }
  // An upstream tool's own error answer is relayed as the upstream wrote it.
  const relayed = mcpErrorPresentationOf(toolCauseFromResult(result));
  if (relayed !== undefined) return { ...relayed, isError: true };
  return errorResult(result);
}

function errorResult(failure: ToolFailure): CallToolResult {
  const text = JSON.stringify(toolErrorEnvelope(failure));
  return { content: [{ type: 'text', text }], isError: true };
}
