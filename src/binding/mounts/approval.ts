/**
 * Which agent tool calls need the host's approval, mapped onto the AI SDK's own tool approval
 * (`needsApproval`): the SDK asks for approval instead of executing, and a denied call never
 * reaches the runner. Pure, apart from calling the host's policy function.
 */
import type { AnyRuntimeToolDefinition } from '../contract/runtime-tool.js';

/**
 * Decides per call whether a tool call needs approval; receives the tool, the input as the model
 * gave it (parsed from JSON), and the mount's host context. A throw means "needs approval".
 */
export type AgentApprovalFunction = (
  tool: AnyRuntimeToolDefinition,
  input: unknown,
  context: Readonly<Record<string, unknown>> | undefined,
) => boolean | Promise<boolean>;

/**
 * The approval policy of a mount: `'none'` (default), `'all'`, `'destructive'` (every tool not
 * marked `readOnlyHint: true`, MCP's own reading of a missing hint), a map from tool name to
 * whether it needs approval (absent names do not), or a function asked per call.
 */
export type AgentApprovalPolicy =
  | 'none'
  | 'all'
  | 'destructive'
  | Readonly<Record<string, boolean>>
  | AgentApprovalFunction;

/** What the AI SDK reads from a tool: a fixed answer, or a function asked per call. */
export type AgentNeedsApproval = boolean | ((input: unknown) => Promise<boolean>);

/** Throws a `TypeError` for anything that is not an {@link AgentApprovalPolicy}. */
export function assertApprovalPolicy(policy: unknown): asserts policy is AgentApprovalPolicy {
  if (policy === 'none' || policy === 'all' || policy === 'destructive') return;
  if (typeof policy === 'function') return;
  if (
    typeof policy === 'object' &&
    policy !== null &&
    !Array.isArray(policy) &&
    Object.values(policy).every((value) => typeof value === 'boolean')
  ) {
    return;
  }
  throw new TypeError(
    "mountAgent: approval must be 'none', 'all', 'destructive', a map of tool names to booleans, or a function",
  );
}

/** Whether `definition` needs approval under `policy`: `undefined` when it never does. */
export function needsApprovalFor(
  policy: AgentApprovalPolicy,
  definition: AnyRuntimeToolDefinition,
  context: Readonly<Record<string, unknown>> | undefined,
): AgentNeedsApproval | undefined {
  if (policy === 'none') return undefined;
  if (policy === 'all') return true;
  if (policy === 'destructive') {
    return definition.annotations?.readOnlyHint === true ? undefined : true;
  }
  if (typeof policy === 'function') {
    return async (input) => {
      try {
        return (await policy(definition, input, context)) !== false;
      } catch {
        // Fail closed: a policy that cannot decide asks the host.
        return true;
      }
    };
  }
  return policy[definition.name] === true ? true : undefined;
}
