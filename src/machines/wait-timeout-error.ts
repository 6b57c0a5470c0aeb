/** The failure of a wait whose deadline passed before any state was observed (ADR 0081). */
import { AppError, TOOL_ERROR_PROJECTION, type ToolErrorProjecting } from '../binding/app-error.js';

const WAIT_TIMEOUT_BRAND = Symbol.for('stitchkit-transport.error.WAIT_TIMEOUT');

/** The deadline of a wait passed before its first poll returned a state. */
export class WaitTimeoutError extends Error implements ToolErrorProjecting {
  override readonly name = 'WaitTimeoutError';
  /** Stable code, also the projected tool error code. */
  readonly code = 'WAIT_TIMEOUT';
  /** The overall deadline that passed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super('Wait timed out before the first snapshot');
    this.timeoutMs = timeoutMs;
  }

  /** The brand that makes {@link WaitTimeoutError.isInstance} work across package copies. */
  get [WAIT_TIMEOUT_BRAND](): true {
    return true;
  }

  /** True when `value` is a WaitTimeoutError from any copy of this package. */
  static isInstance(value: unknown): value is WaitTimeoutError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[WAIT_TIMEOUT_BRAND] === true
    );
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return WaitTimeoutError.isInstance(value);
  }

  /** Projects onto `AppError('WAIT_TIMEOUT', …, 408)`. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return new AppError('WAIT_TIMEOUT', { message: this.message, status: 408, retryable: false });
  }
}
