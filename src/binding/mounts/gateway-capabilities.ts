/**
 * How a gateway refuses its MCP 2026-07-28 client when its upstream refused the gateway for client
 * capabilities (JSON-RPC `-32021`, `requiredCapabilities`) that this client did not declare either:
 * the same refusal, given by the v2 SDK's own seam. Pure.
 */
import { type ToolResult, toolCauseFromResult } from '../contract/tool-result.js';
import { mcpRequiredCapabilitiesOf } from '../kernel/mcp-protocols.js';
import { isRecord } from '../kernel/type-guards.js';
import type { McpHandlerRequest } from './mcp-request.js';

/**
 * A question of each kind a capability answers, never sent: an `input_required` naming a
 * capability the request did not declare is refused by the v2 SDK's seam with JSON-RPC `-32021`
 * and `requiredCapabilities`, which is how a tool handler refuses its client as the upstream
 * refused the gateway.
 */
const QUESTION_OF_CAPABILITY: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  sampling: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
  elicitation: {
    method: 'elicitation/create',
    params: { message: '', requestedSchema: { type: 'object', properties: {} } },
  },
  roots: { method: 'roots/list', params: {} },
};

/**
 * The answer that makes the SDK refuse a 2026 client with `-32021` when the upstream refused the
 * call for capabilities this client did not declare; `undefined` when the failure is another one,
 * or when every capability named is one the client declared (then the failure is relayed as it is).
 */
export function missingCapabilityRefusal(
  result: ToolResult,
  request: McpHandlerRequest,
): Readonly<Record<string, unknown>> | undefined {
  const required = result.ok ? undefined : mcpRequiredCapabilitiesOf(toolCauseFromResult(result));
  if (required === undefined) return undefined;
  const declared = isRecord(request.clientCapabilities) ? request.clientCapabilities : {};
  const missing = Object.keys(required).filter((capability) => declared[capability] === undefined);
  if (
    missing.length === 0 ||
    missing.some((capability) => !(capability in QUESTION_OF_CAPABILITY))
  ) {
    return undefined;
  }
  return {
    resultType: 'input_required',
    inputRequests: Object.fromEntries(
      missing.map((capability) => [capability, QUESTION_OF_CAPABILITY[capability]]),
    ),
  };
}
