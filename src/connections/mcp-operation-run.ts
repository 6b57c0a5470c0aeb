/**
 * Runs one `mcpOperation` machine for a connection: one fresh client per operation, torn down in
 * every outcome by the machine itself.
 */
import type { RuntimeToolHandlerContext } from '../binding/index.js';
import { REQUEST_ID } from '../machines/mcp-operation/mcp-operation.policy.js';
import type {
  McpCallerRelay,
  McpOperationOutput,
  McpProgressEvent,
  McpProtocolChoice,
  McpRequest,
} from '../machines/mcp-operation/mcp-operation.types.js';
import type { TransitionObserver } from '../machines/observe.js';
import { runMachine } from '../machines/run-machine.js';
import { phaseOfOperation } from '../wire/index.js';
import type { ResolvedMcpConnection } from './define-mcp-connection.js';
import { limitsForOperation } from './limits.js';
import { connectionRunOptions } from './run-options.js';
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
  /** The revision to speak: a call's is discovery's verdict; default the connection's choice. */
  readonly protocolVersion?: McpProtocolChoice;
  /** The revision is a verdict an answer may contradict once (see `McpOperationInput.reprobe`). */
  readonly reprobe?: boolean;
}

/** Runs one operation (`tools/list` or `tools/call`) against the connection's server. */
export function runMcpOperation(
  connection: McpClientConnection,
  resolved: ResolvedMcpConnection,
  run: McpOperationRun,
): Promise<McpOperationSuccess> {
  const phase = phaseOfOperation(run.request.method);
  return runMachine(
    resolved.machine,
    {
      connectionName: resolved.name,
      url: resolved.url.href,
      fence: resolved.fence,
      headers: resolved.headers,
      transportType: resolved.transportType,
      protocolVersion: run.protocolVersion ?? resolved.protocolChoice,
      reprobe: run.reprobe ?? false,
      resolvesToken: resolved.resolvesToken,
      principal: run.context,
      request: run.request,
      limits: {
        handshake: resolved.limits.discovery,
        request: limitsForOperation(resolved.limits, run.request.method),
      },
      ...(run.onProgress === undefined ? {} : { progressToken: REQUEST_ID }),
      ...(run.relay === undefined ? {} : { relay: run.relay }),
    },
    connectionRunOptions(
      connection,
      { connection: resolved.name, phase, operation: run.request.method },
      {
        ...(run.signal === undefined ? {} : { signal: run.signal }),
        ...(run.observe === undefined ? {} : { observe: run.observe }),
        ...(run.onProgress === undefined
          ? {}
          : { onEmitted: (event) => run.onProgress?.(event as McpProgressEvent) }),
      },
    ),
  );
}
