/**
 * The `tasks/*` requests of a task an MCP tool's call handed back to its caller (decision 0050): a
 * gateway whose client declared the tasks extension relays the upstream's task, and forwards its
 * client's `tasks/get`, `tasks/update` and `tasks/cancel` through here. Each request is one run of
 * `mcpOperation` on the stateless wire (MCP 2026-07-28, the only revision that hands a task back),
 * under the connection's fence and limits, sent once, with its credentials resolved for the
 * context the gateway gives (built as the call's was). Not a tool call: no input check, no hooks,
 * no approval gate. The answer is read strictly before it is relayed.
 */

import type { RuntimeToolHandlerContext } from '../binding/index.js';
import type { McpTaskRelayRequest, McpTaskRequester } from '../binding/kernel/mcp-protocols.js';
import type { McpRequest } from '../machines/mcp-operation/mcp-operation.types.js';
import type { TransitionObserver } from '../machines/observe.js';
import { type OperationScope, STATELESS_REVISION } from '../wire/index.js';
import { taskAckOf, taskStatusOf } from '../wire/mcp/tasks.js';
import type { ResolvedMcpConnection } from './define-mcp-connection.js';
import { runMcpOperation } from './mcp-operation-run.js';
import type { McpClientConnection } from './types.js';

/** The operation `request` runs: its method and its params, the upstream's task id named. */
function operationOf(request: McpTaskRelayRequest): McpRequest {
  return request.method === 'tasks/update'
    ? {
        method: 'tasks/update',
        params: { taskId: request.taskId, inputResponses: request.inputResponses },
      }
    : { method: request.method, params: { taskId: request.taskId } };
}

/**
 * A `tasks/get` answer as the upstream wrote it, for the gateway to relay: every field kept (the
 * status, its message, the times, `ttlMs`, `pollIntervalMs`, the payload of the status), its
 * `_meta` left out (the gateway's server writes its own).
 */
function relayedStatus(answer: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const relayed: Record<string, unknown> = Object.assign({}, answer);
  delete relayed._meta;
  return relayed;
}

/**
 * The {@link McpTaskRequester} of one MCP tool's definition: its `send` runs one `tasks/*`
 * request against the connection's server, and reads the answer with the task readers (a
 * malformed status or acknowledgement is a `ConnectionProtocolError`; an upstream's JSON-RPC
 * error, `-32602` for a task it no longer knows, keeps its code on the protocol error).
 */
export function taskRequesterOf(
  connection: McpClientConnection,
  resolved: ResolvedMcpConnection,
  observe: TransitionObserver | undefined,
): McpTaskRequester {
  return {
    taskTimeoutMs: resolved.limits.task.timeoutMs,
    async send(request, { signal, context }) {
      const outcome = await runMcpOperation(connection, resolved, {
        request: operationOf(request),
        context: context as RuntimeToolHandlerContext,
        signal,
        protocolVersion: STATELESS_REVISION,
        // Sent once, under a retry policy too (a task's requests never are repeated, decision
        // 0042): the client that polls asks again at its own pace.
        repeatable: false,
        ...(observe === undefined ? {} : { observe }),
      });
      const answer = outcome.result as Readonly<Record<string, unknown>>;
      const scope: OperationScope = {
        connectionName: resolved.name,
        operation: request.method,
        phase: 'call',
      };
      if (request.method !== 'tasks/get') {
        taskAckOf(answer, scope);
        return {};
      }
      taskStatusOf(answer, STATELESS_REVISION, scope);
      return relayedStatus(answer);
    },
  };
}
