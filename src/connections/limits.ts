/**
 * Connection limits: defaults, validation and per-phase resolution. Pure: no I/O.
 * Options are validated once, at definition, into frozen resolved objects.
 */

import { assertTimeoutMs, MAX_TIMER_MS } from '../machines/deadline.js';
import {
  type ConnectionOperation,
  type ConnectionPhase,
  phaseOfOperation,
} from '../wire/core/operation.js';
import type { PhaseLimits } from '../wire/index.js';
import { DEFAULT_TASK_TIMEOUT_MS } from '../wire/mcp/tasks.js';

// The timer ceiling is shared with the wait operation, so it lives with the deadline rules.
export { assertTimeoutMs, MAX_TIMER_MS };

/** Default deadline of one operation, in milliseconds. */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 30_000;
/** Default raw byte ceiling of one operation's responses (SSE framing included): 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576;

/** Limits of one operation (or the shared baseline); absent fields inherit. */
export interface OperationLimits {
  /** Deadline in milliseconds: a positive integer up to {@link MAX_TIMER_MS}. */
  timeoutMs?: number;
  /** Raw byte ceiling: a positive safe integer. */
  maxResponseBytes?: number;
  /**
   * Per phase only: when set, each upstream progress report restarts the `timeoutMs` window,
   * never past this many milliseconds from the request's start (a hard cap). Unset: progress
   * extends nothing. A positive integer up to {@link MAX_TIMER_MS}.
   */
  maxTotalTimeoutMs?: number;
}

// The task deadline's default lives with the task vocabulary, where the machine reads it too.
export { DEFAULT_TASK_TIMEOUT_MS };

/** The limit of a call that became an MCP task (decision 0042). */
export interface TaskLimits {
  /**
   * Milliseconds from the answer that created the task to its end, input rounds included; never
   * past the task's own `ttlMs`. A positive integer up to {@link MAX_TIMER_MS}; default 600 000.
   */
  timeoutMs?: number;
}

/** The limits of each MCP phase. */
export interface ResolvedMcpLimits {
  /** Handshake, `tools/list` and the SSE endpoint wait. */
  readonly discovery: PhaseLimits;
  /** `tools/call`, and each request of a call that became a task. */
  readonly call: PhaseLimits;
  /** A call that became a task, from its creation to its end. */
  readonly task: { readonly timeoutMs: number };
}

/** The MCP connection fields that carry limits. */
export interface McpLimitsConfig {
  /** Shared deadline for both phases. */
  timeoutMs?: number;
  /** Shared byte ceiling for both phases. */
  maxResponseBytes?: number;
  /** Per-phase overrides, field by field, and the task deadline. */
  limits?: { discovery?: OperationLimits; call?: OperationLimits; task?: TaskLimits };
}

/** A byte ceiling: a positive safe integer; else a RangeError naming `option`. */
export function assertMaxResponseBytes(value: unknown, option: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `${option} must be a positive safe integer number of bytes; got ${describe(value)}`,
    );
  }
  return value;
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value;
}

/**
 * Fills the defaults (30 s, 1 MiB) and validates. `option` prefixes the option names in errors,
 * e.g. `limits.call` gives `limits.call.timeoutMs`.
 */
export function resolveOperationLimits(shared: OperationLimits, option?: string): PhaseLimits {
  const name = (field: string): string => (option === undefined ? field : `${option}.${field}`);
  return Object.freeze({
    timeoutMs: assertTimeoutMs(
      shared.timeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
      name('timeoutMs'),
    ),
    maxResponseBytes: assertMaxResponseBytes(
      shared.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      name('maxResponseBytes'),
    ),
  });
}

function resolvePhase(
  shared: PhaseLimits,
  override: OperationLimits | undefined,
  phase: ConnectionPhase,
): PhaseLimits {
  const option = `limits.${phase}`;
  return Object.freeze({
    timeoutMs:
      override?.timeoutMs === undefined
        ? shared.timeoutMs
        : assertTimeoutMs(override.timeoutMs, `${option}.timeoutMs`),
    maxResponseBytes:
      override?.maxResponseBytes === undefined
        ? shared.maxResponseBytes
        : assertMaxResponseBytes(override.maxResponseBytes, `${option}.maxResponseBytes`),
    ...(override?.maxTotalTimeoutMs === undefined
      ? {}
      : {
          maxTotalTimeoutMs: assertTimeoutMs(
            override.maxTotalTimeoutMs,
            `${option}.maxTotalTimeoutMs`,
          ),
        }),
  });
}

/**
 * Resolves the limits of both MCP phases. Both are validated even if one is never used; an
 * override field left undefined inherits the shared value, independently per field. Frozen.
 */
export function resolveMcpLimits(config: McpLimitsConfig): ResolvedMcpLimits {
  const shared = resolveOperationLimits({
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
  });
  return Object.freeze({
    discovery: resolvePhase(shared, config.limits?.discovery, 'discovery'),
    call: resolvePhase(shared, config.limits?.call, 'call'),
    task: Object.freeze({
      timeoutMs: assertTimeoutMs(
        config.limits?.task?.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS,
        'limits.task.timeoutMs',
      ),
    }),
  });
}

/** The resolved limits that govern one operation. */
export function limitsForOperation(
  limits: Pick<ResolvedMcpLimits, 'discovery' | 'call'>,
  operation: ConnectionOperation,
): PhaseLimits {
  return limits[phaseOfOperation(operation)];
}
