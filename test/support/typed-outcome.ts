/**
 * What "typed" means for the fuzzers and the soak: a failure a caller sees is one of our errors
 * (a connection error or an `AppError`), and a cancelled call carries the caller's exact reason.
 */
import { AppError } from '../../src/binding/app-error.js';
import { type runTool, toolCauseFromResult } from '../../src/binding/index.js';
import { ConnectionError } from '../../src/wire/index.js';

/** `error` is one of the package's typed errors. */
export function isOurError(error: unknown): boolean {
  return ConnectionError.isInstance(error) || AppError.isInstance(error);
}

/**
 * `result` is a success, or a failure whose cause is one of our typed errors; with
 * `cancelReason`, a `CANCELLED` result must carry exactly that reason.
 */
export function isTypedResult(
  result: Awaited<ReturnType<typeof runTool>>,
  cancelReason?: unknown,
): boolean {
  if (result.ok) return true;
  const cause = toolCauseFromResult(result);
  if (cancelReason !== undefined && result.code === 'CANCELLED') return cause === cancelReason;
  return isOurError(cause);
}
