/**
 * The checks every connection definition shares, at definition time: the name, the limits, the
 * transports and the host hooks, with errors that name the kind and the connection. Pure.
 */
import { resolveToolTransports, type ToolTransport } from '../binding/index.js';
import { type ResolvedMcpLimits, resolveMcpLimits } from './limits.js';
import type { ConnectionCommonConfig } from './types.js';

/** What the shared checks resolve. */
export interface CheckedConnectionBasics {
  readonly name: string;
  readonly limits: ResolvedMcpLimits;
  readonly transports: readonly ToolTransport[];
}

/** A non-empty connection name; `kind` is how errors name the connection (`MCP connection`). */
export function requireConnectionName(kind: string, name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError(`${kind} requires a non-empty name`);
  }
  return name;
}

/** Checks the shared fields; throws a `RangeError` or `TypeError` naming the connection. */
export function checkConnectionBasics(
  kind: string,
  config: ConnectionCommonConfig,
): CheckedConnectionBasics {
  const name = requireConnectionName(kind, config?.name);
  const limits = resolveMcpLimits({
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...(config.maxResponseBytes === undefined ? {} : { maxResponseBytes: config.maxResponseBytes }),
    ...(config.limits === undefined ? {} : { limits: config.limits }),
  });
  if (
    config.transports !== undefined &&
    (!Array.isArray(config.transports) || config.transports.length === 0)
  ) {
    throw new TypeError(`${kind} "${name}": transports must list at least one transport`);
  }
  const transports = resolveToolTransports({ transports: config.transports });
  if (config.transports !== undefined && transports.length !== config.transports.length) {
    throw new TypeError(`${kind} "${name}": transports may only name MCP, AGENT or CLI`);
  }
  for (const hook of ['token', 'observe', 'inspect'] as const) {
    const value = config[hook];
    if (
      value !== undefined &&
      typeof value !== 'function' &&
      !(hook === 'inspect' && typeof value === 'object')
    ) {
      throw new TypeError(`${kind} "${name}": ${hook} must be a function`);
    }
  }
  return { name, limits, transports };
}
