/**
 * How a machine's result output becomes part of a model vertex, so that a walk on the real actor
 * checks the outcome it produced (error class, message and facts), not only the final state.
 */
import type { MachineResult } from '../../src/machines/run-machine.js';

/** The facts of an outcome a vertex keeps; `observedReadBytes` only for timeouts (see below). */
export function describeOutcome(output: MachineResult<object> | undefined): unknown {
  if (output === undefined) return undefined;
  if (output.ok) return { ...output };
  const { error } = output;
  if (!(error instanceof Error)) return { ok: false, reason: String(error) };
  const facts = error as Error & {
    operation?: unknown;
    status?: unknown;
    body?: unknown;
    violation?: unknown;
    timeoutMs?: unknown;
    observedReadBytes?: unknown;
  };
  return {
    ok: false,
    error: error.name,
    message: error.message,
    operation: facts.operation,
    status: facts.status,
    body: facts.body,
    violation: facts.violation,
    timeoutMs: facts.timeoutMs,
    // The bytes a deadline saw are the last reported total; other failures count the real
    // actor's own reads, which the model's cases do not reproduce byte for byte.
    observedReadBytes:
      error.name === 'ConnectionTimeoutError' ? facts.observedReadBytes : undefined,
  };
}
