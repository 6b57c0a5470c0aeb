/**
 * The error an agent tool throws on failure, so the AI SDK emits a `tool-error`: its message is
 * the model-safe JSON envelope; the raw error stays on `cause` for the host.
 */

import { BrandedError } from '../kernel/branded-error.js';
import { brandSymbol } from '../kernel/type-guards.js';
import {
  type ToolErrorEnvelope,
  type ToolFailure,
  toolCauseFromResult,
  toolErrorEnvelope,
} from './tool-result.js';

/**
 * A failed agent tool call. `output` is the model-safe envelope, `message` its JSON, and `cause`
 * the raw error (in-process only; never serialized to the model).
 */
export class AgentToolError extends BrandedError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol('AgentToolError');
  override readonly name = 'AgentToolError';
  /** The model-safe envelope `{ error, details?, retryable?, hint? }`. */
  readonly output: ToolErrorEnvelope;

  constructor(output: ToolErrorEnvelope, cause?: unknown) {
    super(stringifyEnvelope(output), cause === undefined ? undefined : { cause });
    this.output = output;
  }

  /**
   * The envelope's JSON, as `message` is, without the class name: the AI SDK 7 hands the model
   * `error.toString()` (6 handed it `message`), and the model must see the envelope alone.
   */
  override toString(): string {
    return this.message;
  }
}

/** True when `value` is an {@link AgentToolError} from any copy of this package. */
export function isAgentToolError(value: unknown): value is AgentToolError {
  return AgentToolError.isInstance(value);
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
