/**
 * Runs one `mcpOperation` machine for a connection: one fresh client per operation (per attempt,
 * under a retry policy), torn down in every outcome by the machine itself.
 */
import type { RuntimeToolHandlerContext } from '../binding/index.js';
import { REQUEST_ID } from '../machines/mcp-operation/mcp-operation.policy.js';
import type {
  McpCallerRelay,
  McpOperationInput,
  McpOperationOutput,
  McpProgressEvent,
  McpProtocolChoice,
  McpRequest,
  McpTransportChoice,
} from '../machines/mcp-operation/mcp-operation.types.js';
import type { TransitionObserver } from '../machines/observe.js';
import type { ResolvedMcpConnection } from './define-mcp-connection.js';
import { limitsForOperation } from './limits.js';
import { attemptBudgetMs, runConnectionOperation } from './run-operation.js';
import type { OperationSpanPlan } from './telemetry.js';
import type { McpClientConnection } from './types.js';

/** The successful output of one MCP operation. */
export type McpOperationSuccess = Extract<McpOperationOutput, { ok: true }>;

/** Everything one operation needs besides the connection. */
export interface McpOperationRun {
  readonly request: McpRequest;
  /** The tool call's handler context; absent for discovery (no principal). */
  readonly context?: RuntimeToolHandlerContext;
  readonly signal?: AbortSignal;
  readonly observe?: TransitionObserver;
  /** Receives the upstream's progress for the request; asks for it when given. */
  readonly onProgress?: (report: McpProgressEvent) => void;
  /** The call's caller, when it can receive anything: requests and log messages are relayed. */
  readonly relay?: McpCallerRelay;
  /** The revision to speak: a call's is discovery's revision; default the connection's choice. */
  readonly protocolVersion?: McpProtocolChoice;
  /** The revision is a revision an answer may contradict once (see `McpOperationInput.discovered`). */
  readonly discovered?: boolean;
  /** The transport to speak; default the connection's choice (a relisting speaks discovery's). */
  readonly transportType?: McpTransportChoice;
  /**
   * A call may run twice with no further effect (its tool is marked read-only or idempotent), so
   * the retry policy may repeat it after any transient failure. A listing always may.
   */
  readonly repeatable?: boolean;
}

/**
 * Runs one operation (`tools/list` or `tools/call`) against the connection's server, under the
 * connection's retry policy when it has one: each attempt is a fresh client, torn down.
 */
export function runMcpOperation(
  connection: McpClientConnection,
  resolved: ResolvedMcpConnection,
  run: McpOperationRun,
): Promise<McpOperationSuccess> {
  const method = run.request.method;
  const limits = {
    handshake: resolved.limits.discovery,
    request: limitsForOperation(resolved.limits, method),
    // A call that becomes a task runs under its own deadline (decision 0042).
    task: resolved.limits.task,
  };
  const input: McpOperationInput = {
    connectionName: resolved.name,
    url: resolved.url.href,
    fence: resolved.fence,
    headers: resolved.headers,
    transportType: run.transportType ?? resolved.transportType,
    protocolVersion: run.protocolVersion ?? resolved.protocolChoice,
    discovered: run.discovered ?? false,
    resolvesToken: resolved.resolvesToken,
    principal: run.context,
    request: run.request,
    limits,
    ...(run.onProgress === undefined ? {} : { progressToken: REQUEST_ID }),
    ...(run.relay === undefined ? {} : { relay: run.relay }),
  };
  return runConnectionOperation(
    connection,
    {
      connection: resolved,
      operation: method,
      repeatable: method === 'tools/list' || run.repeatable === true,
      // The retry policy's deadline over the attempts: the handshake and the request window. A
      // call that becomes a task is bounded by it too under a retry policy (decision 0046).
      budgetMs: attemptBudgetMs(limits.request, limits.handshake),
      signal: run.signal,
      observe: run.observe,
      span: spanPlanOf(resolved, run.request, input.protocolVersion),
      ...(run.onProgress === undefined
        ? {}
        : {
            onEmitted: (event) => {
              if (event.type === 'progress') run.onProgress?.(event as McpProgressEvent);
            },
          }),
    },
    resolved.machine,
    input,
  );
}

/** What the operation's span says of it before it runs. */
function spanPlanOf(
  resolved: ResolvedMcpConnection,
  request: McpRequest,
  protocolVersion: McpProtocolChoice | undefined,
): OperationSpanPlan {
  const settled =
    protocolVersion === undefined || protocolVersion === 'auto' ? {} : { protocolVersion };
  if (request.method !== 'tools/call') {
    return { kind: 'mcp', method: request.method, server: resolved.url, ...settled };
  }
  return {
    kind: 'mcp',
    method: 'tools/call',
    tool: request.params.name,
    arguments: request.params.arguments,
    server: resolved.url,
    ...settled,
  };
}
