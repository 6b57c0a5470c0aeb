/**
 * The error an agent tool throws on failure, so the AI SDK emits a `tool-error`: its message is
 * the model-safe JSON envelope; the raw error stays on `cause` for the host.
 */
import {
  type ToolErrorEnvelope,
  type ToolFailure,
  toolCauseFromResult,
  toolErrorEnvelope,
} from './tool-result.js';
import { brandSymbol, hasBrand } from './type-guards.js';

// Typed `unique symbol` (as a bare `Symbol.for` would be) so the brand stays a declared member.
const AGENT_TOOL_ERROR_BRAND: unique symbol = brandSymbol('AgentToolError') as never;

/**
 * A failed agent tool call. `output` is the model-safe envelope, `message` its JSON, and `cause`
 * the raw error (in-process only; never serialized to the model).
 */
export class AgentToolError extends Error {
  override readonly name = 'AgentToolError';
  /** The model-safe envelope `{ error, details?, retryable?, hint? }`. */
  readonly output: ToolErrorEnvelope;

  constructor(output: ToolErrorEnvelope, cause?: unknown) {
    super(stringifyEnvelope(output), cause === undefined ? undefined : { cause });
    this.output = output;
  }

  /** The brand that makes {@link isAgentToolError} work across copies of the package. */
  get [AGENT_TOOL_ERROR_BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isAgentToolError(value);
  }
}

/** True when `value` is an {@link AgentToolError} from any copy of this package. */
export function isAgentToolError(value: unknown): value is AgentToolError {
  return hasBrand(value, AGENT_TOOL_ERROR_BRAND);
}

/** The AgentToolError for a failure result, with the result's retained raw cause. */
export function agentToolErrorFromResult(result: ToolFailure): AgentToolError {
  return new AgentToolError(toolErrorEnvelope(result), toolCauseFromResult(result));
}

function stringifyEnvelope(output: ToolErrorEnvelope): string {
  try {
    return JSON.stringify(output);
  } catch {
    return 'Tool execution failed';
  }
}
