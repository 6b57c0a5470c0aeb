/**
 * The one definition of a typed outcome, for the fuzzers and the soak. A failure is typed when
 * its code is one the library produces ({@link LIBRARY_CODES}, read from `src/`) and its cause is
 * one of the package's own errors, or a schema library's validation error behind the library's
 * own input refusal (`VALIDATION_ERROR` with a zod cause); an upstream MCP tool's own refusal
 * keeps its own code. A `CANCELLED` failure is typed only
 * with the caller's exact reason as its cause. A success is never accepted unseen: the caller's
 * own oracle judges its data.
 */
import { z } from 'zod';
import {
  CANCELLED_CODE,
  MCP_ERROR_PRESENTATION,
  type runTool,
  type ToolResult,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import { BrandedError } from '../../src/binding/kernel/branded-error.js';
import { LIBRARY_CODES } from './library-codes.js';

export { LIBRARY_CODES } from './library-codes.js';

/** A call's result, as `runTool` resolves it. */
export type CallResult = Awaited<ReturnType<typeof runTool>>;

/** How a caller judges what it was given back. */
export interface OutcomeOracle {
  /** The caller's own verdict on a success's data: `true` only for the data it expects. */
  readonly success: (data: unknown) => boolean;
  /** The reason the caller aborted with, when it aborted. */
  readonly cancelReason?: unknown;
}

/** `error` is one of the package's errors (every one is a branded error of the package). */
export function isOurError(error: unknown): boolean {
  return BrandedError.isInstance(error);
}

/** `error` is a validation error of the schema library the library validates input with. */
export function isSchemaRefusal(error: unknown): boolean {
  return error instanceof z.core.$ZodError;
}

/**
 * `error` relays an upstream MCP tool's own `isError` answer (its code is the upstream's, as the
 * guide says): an error of ours that presents the upstream's result.
 */
export function isUpstreamRefusal(error: unknown): boolean {
  return (
    isOurError(error) &&
    typeof (error as Partial<Record<symbol, unknown>>)[MCP_ERROR_PRESENTATION] === 'function'
  );
}

/** A short description of any thrown value: its name, its code when it has one, its message. */
export function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return `a non-error ${typeof cause}: ${String(cause)}`;
  const code = (cause as { code?: unknown }).code;
  return `${cause.name}${code === undefined ? '' : ` (${String(code)})`}: ${cause.message}`;
}

/**
 * Why `result` is not a typed outcome under `oracle`, or `undefined` when it is: a success the
 * oracle does not expect, a code the library never produces, a cancellation without the caller's
 * exact reason, or a cause that is neither ours nor the schema library's refusal.
 */
export function untypedOutcome(result: ToolResult, oracle: OutcomeOracle): string | undefined {
  if (result.ok) {
    return oracle.success(result.data)
      ? undefined
      : `a success its oracle does not expect: ${JSON.stringify(result.data)?.slice(0, 120)}`;
  }
  const cause = toolCauseFromResult(result);
  if (!LIBRARY_CODES.has(result.code) && !isUpstreamRefusal(cause)) {
    return `code ${result.code} is not one of the library's`;
  }
  if (result.code === CANCELLED_CODE) {
    return 'cancelReason' in oracle && cause === oracle.cancelReason
      ? undefined
      : `CANCELLED without the caller's reason (cause: ${describeCause(cause)})`;
  }
  if (isOurError(cause)) return undefined;
  if (result.code === 'VALIDATION_ERROR' && isSchemaRefusal(cause)) return undefined;
  return `${result.code} with a cause that is not ours: ${describeCause(cause)}`;
}

/** `result` is a typed outcome under `oracle` (see {@link untypedOutcome}). */
export function isTypedResult(result: ToolResult, oracle: OutcomeOracle): boolean {
  return untypedOutcome(result, oracle) === undefined;
}
