/**
 * The transport-neutral result of a tool call, and the projection of thrown values onto it. The
 * normalized AppError and the raw cause stay in-process, out of band, keyed by the result object.
 */
import { AppError, isRetryableStatus, projectToolError } from '../kernel/app-error.js';

/** A tool call's outcome. A failure holds only model-safe fields. */
export type ToolResult =
  | { ok: true; data: unknown }
  | { ok: false; code: string; details?: object; hint?: string; retryable?: boolean };

/** A failed {@link ToolResult}. */
export type ToolFailure = Extract<ToolResult, { ok: false }>;

/** The model-safe envelope of a failure, as an agent or MCP client receives it. */
export interface ToolErrorEnvelope {
  /** The failure's stable code. */
  error: string;
  /** Model-safe details. */
  details?: object;
  /** Whether retrying may succeed. */
  retryable?: boolean;
  /** A short instruction for the caller. */
  hint?: string;
}

/** Code of a call the caller cancelled. */
export const CANCELLED_CODE = 'CANCELLED';
/** HTTP-like status of a cancelled call (nginx's "client closed request"). */
export const CANCELLED_STATUS = 499;

const SCRUBBED_MESSAGE = 'Internal server error';

/** Default statuses of the codes this package produces, for rebuilding a serialized failure. */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONNECTION_RESPONSE_TOO_LARGE: 413,
  CANCELLED: CANCELLED_STATUS,
  INTERNAL_SERVER_ERROR: 500,
  CONNECTION_REQUEST_FAILED: 502,
  CONNECTION_PROTOCOL_ERROR: 502,
  CONNECTION_TIMEOUT: 504,
};

interface RetainedFailure {
  error: AppError;
  cause: unknown;
}

const retained = new WeakMap<ToolResult, RetainedFailure>();

/** Builds a failure result from a normalized AppError and remembers both it and the raw cause. */
export function toolResultFromAppError(error: AppError, cause: unknown): ToolFailure {
  const result: ToolFailure = {
    ok: false,
    code: error.code,
    details: error.details ?? { message: error.message },
    retryable: error.retryable ?? isRetryableStatus(error.status),
  };
  if (error.hint !== undefined) result.hint = error.hint;
  retained.set(result, { error, cause });
  return result;
}

/**
 * Projects any thrown value onto a {@link ToolResult}: an error carrying `TOOL_ERROR_PROJECTION`
 * projects itself; an AppError maps directly; anything else becomes `INTERNAL_SERVER_ERROR` with
 * no message, stack or other text of the original.
 */
export function toolResultFromError(error: unknown): ToolFailure {
  const projected = projectToolError(error);
  if (projected !== undefined) return toolResultFromAppError(projected, error);
  if (AppError.isInstance(error)) return toolResultFromAppError(error, error);
  const scrubbed = new AppError('INTERNAL_SERVER_ERROR', {
    message: SCRUBBED_MESSAGE,
    status: 500,
    details: { message: SCRUBBED_MESSAGE },
    retryable: false,
    cause: error,
  });
  return toolResultFromAppError(scrubbed, error);
}

/**
 * The failure for a call the caller cancelled: `CANCELLED` / 499, not retryable. The retained
 * cause is the caller's exact `signal.reason`.
 */
export function toolResultFromCancellation(reason: unknown): ToolFailure {
  const error = new AppError(CANCELLED_CODE, {
    message: 'The tool call was cancelled',
    status: CANCELLED_STATUS,
    retryable: false,
    cause: reason,
  });
  return toolResultFromAppError(error, reason);
}

/**
 * The AppError behind a failure. In-process results return the retained error; a serialized copy
 * is rebuilt from its fields (status from the code, else 500). Success gives `undefined`.
 */
export function toolErrorFromResult(result: ToolResult): AppError | undefined {
  if (result.ok) return undefined;
  const kept = retained.get(result);
  if (kept !== undefined) return kept.error;
  return new AppError(result.code, {
    status: STATUS_BY_CODE[result.code] ?? 500,
    details: result.details as Record<string, unknown> | undefined,
    hint: result.hint,
    retryable: result.retryable,
  });
}

/** The raw thrown value behind a failure, in-process only; `undefined` for a serialized copy. */
export function toolCauseFromResult(result: ToolResult): unknown {
  return retained.get(result)?.cause;
}

/** The model-safe envelope of a failure: `{ error, details?, retryable?, hint? }`. */
export function toolErrorEnvelope(result: ToolFailure): ToolErrorEnvelope {
  const envelope: ToolErrorEnvelope = { error: result.code };
  if (result.details !== undefined) envelope.details = result.details;
  if (result.retryable !== undefined) envelope.retryable = result.retryable;
  if (result.hint !== undefined) envelope.hint = result.hint;
  return envelope;
}
