/**
 * The failure of a wait whose deadline passed (ADR 0081), and the one builder of its
 * `WAIT_TIMEOUT` projection. Pure: no I/O.
 */
import {
  AppError,
  TOOL_ERROR_PROJECTION,
  type ToolErrorProjecting,
} from '../../binding/kernel/app-error.js';
import { BrandedError } from '../../binding/kernel/branded-error.js';
import { brandSymbol } from '../../binding/kernel/type-guards.js';

/**
 * The deadline of a wait passed: before its first poll returned a state (the `wait` machine's
 * failure, default message), or with a state `done` never accepted (`defineWaitTool`, whose
 * message is the rendered text).
 */
export class WaitTimeoutError extends BrandedError implements ToolErrorProjecting {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol('error.WAIT_TIMEOUT');
  override readonly name = 'WaitTimeoutError';
  /** Stable code, also the projected tool error code. */
  readonly code = 'WAIT_TIMEOUT';
  /** HTTP-like status, also the projected one: 408 Request Timeout. */
  readonly status = 408;
  /** The overall deadline that passed, in milliseconds. */
  readonly timeoutMs: number;

  /** `options.message` replaces the default "Wait timed out before the first snapshot". */
  constructor(timeoutMs: number, options: { readonly message?: string } = {}) {
    super(options.message ?? 'Wait timed out before the first snapshot');
    this.timeoutMs = timeoutMs;
  }

  /** Projects onto `AppError('WAIT_TIMEOUT', { message, status: 408, retryable: false })`. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return new AppError(this.code, {
      message: this.message,
      status: this.status,
      retryable: false,
    });
  }
}
