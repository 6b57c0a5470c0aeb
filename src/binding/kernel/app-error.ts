/**
 * The safe, model-facing error shape of the tool contract, and the protocol by which other error
 * classes project themselves onto it. Pure: no I/O.
 */

import { BrandedError } from './branded-error.js';
import { brandSymbol } from './type-guards.js';

/** HTTP statuses whose failures are worth retrying unless an error says otherwise. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/** True for 408, 429, 502, 503 and 504: the statuses a caller may retry by default. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Fields of an {@link AppError} besides its code. */
export interface AppErrorOptions {
  /** Human-readable message; it reaches the model, so it must never hold secrets. */
  message?: string;
  /** HTTP-like status; defaults to 500. */
  status?: number;
  /** Structured, model-safe details. */
  details?: Record<string, unknown>;
  /** A short instruction for the caller (model or user). */
  hint?: string;
  /** Whether retrying may succeed; defaults from the status when absent. */
  retryable?: boolean;
  /** The raw cause, kept in-process only. */
  cause?: unknown;
}

/**
 * An expected, model-safe failure: a stable `code`, a status, and optional details, hint and
 * retryability. Everything in it may be shown to a model.
 */
export class AppError extends BrandedError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol('AppError');
  override readonly name = 'AppError';
  /** Stable machine-readable code, e.g. `VALIDATION_ERROR`. */
  readonly code: string;
  /** HTTP-like status. */
  readonly status: number;
  /** Structured, model-safe details. */
  readonly details: Record<string, unknown> | undefined;
  /** A short instruction for the caller. */
  readonly hint: string | undefined;
  /** Declared retryability; `undefined` means "derive from the status". */
  readonly retryable: boolean | undefined;

  constructor(code: string, options: AppErrorOptions = {}) {
    super(
      options.message ?? code,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.status = options.status ?? 500;
    this.details = options.details;
    this.hint = options.hint;
    this.retryable = options.retryable;
  }
}

/**
 * The symbol under which an error class projects itself onto an {@link AppError}. It is a
 * registered symbol, so a second copy of the package recognises the same protocol.
 */
export const TOOL_ERROR_PROJECTION: unique symbol = brandSymbol('toolErrorProjection') as never;

/** An error that knows its own safe, model-facing projection. */
export interface ToolErrorProjecting {
  /** Returns the model-safe AppError for this failure; must not throw. */
  [TOOL_ERROR_PROJECTION](): AppError;
}

/** Returns the error's own projection, or `undefined` when it has none (or the projection throws). */
export function projectToolError(error: unknown): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const project = (error as Partial<ToolErrorProjecting>)[TOOL_ERROR_PROJECTION];
  if (typeof project !== 'function') return undefined;
  try {
    const projected = project.call(error);
    return AppError.isInstance(projected) ? projected : undefined;
  } catch {
    return undefined;
  }
}
