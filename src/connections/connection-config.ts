/**
 * The checks every connection definition shares, at definition time: the name, the limits, the
 * transports and the host hooks, with errors that name the kind and the connection. Pure.
 */

import { checkMaxTokens } from '../binding/contract/budgeted-tool.js';
import { resolveToolTransports, type ToolTransport } from '../binding/index.js';
import { isRecord } from '../binding/kernel/type-guards.js';
import { MAX_RETRY_ATTEMPTS } from '../machines/retry/retry.policy.js';
import { type SecretValue, secretHeaders } from '../machines/secret-value.js';
import { hasHeaderBreak, isHttpToken } from '../wire/core/header-text.js';
import { connectionSend, parseProxyOption, type WireSend } from '../wire/index.js';
import { type ResolvedMcpLimits, resolveMcpLimits } from './limits.js';
import type { ConnectionCommonConfig } from './types.js';

/** What the shared checks resolve. */
export interface CheckedConnectionBasics {
  readonly name: string;
  readonly limits: ResolvedMcpLimits;
  readonly transports: readonly ToolTransport[];
  /** The most attempts of each operation (`retry.attempts`); 1 when there is no retry policy. */
  readonly attempts: number;
  /** How requests are sent: on the connection's own dispatcher (proxy, TLS), else the pool. */
  readonly send: WireSend | undefined;
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
  checkResults(kind, name, config.results);
  return {
    name,
    limits,
    transports,
    attempts: checkRetryAttempts(kind, name, config.retry),
    send: checkNetworkOptions(kind, name, config),
  };
}

const TLS_KEYS: ReadonlySet<string> = new Set(['ca', 'cert', 'key', 'servername']);

function isPem(value: unknown): boolean {
  const one = (item: unknown) => typeof item === 'string' || Buffer.isBuffer(item);
  return one(value) || (Array.isArray(value) && value.length > 0 && value.every(one));
}

/**
 * `proxy`, `tls` and `dispatcher`: checked, and made into the connection's own sender once, or
 * `undefined` when none is given (requests share the pool).
 */
function checkNetworkOptions(
  kind: string,
  name: string,
  config: ConnectionCommonConfig,
): WireSend | undefined {
  const { proxy, tls, dispatcher } = config;
  if (dispatcher !== undefined) {
    if (typeof (dispatcher as { dispatch?: unknown })?.dispatch !== 'function') {
      throw new TypeError(`${kind} "${name}": dispatcher must be an undici Dispatcher`);
    }
    if (proxy !== undefined || tls !== undefined) {
      throw new TypeError(
        `${kind} "${name}": a dispatcher is used as given; configure its proxy and TLS on it, not with proxy or tls`,
      );
    }
  }
  const parsed = parseProxyOption(proxy);
  if (!parsed.valid) {
    throw new TypeError(`${kind} "${name}": proxy must be 'env' or an http(s) proxy URL`);
  }
  const proxyUrl = parsed.proxy;
  if (tls !== undefined) assertTlsOption(kind, name, tls);
  return connectionSend({ proxy: proxyUrl, tls, dispatcher });
}

/** Refuses a `tls` option that is not `{ ca?, cert?, key?, servername? }` with PEM and a name. */
function assertTlsOption(kind: string, name: string, tls: unknown): void {
  const unknown = isRecord(tls) ? Object.keys(tls).filter((key) => !TLS_KEYS.has(key)) : [];
  if (!isRecord(tls) || unknown.length > 0) {
    throw new TypeError(
      `${kind} "${name}": tls takes ca, cert, key and servername only${
        unknown.length > 0 ? ` (got ${unknown.join(', ')}; verification cannot be turned off)` : ''
      }`,
    );
  }
  for (const field of ['ca', 'cert', 'key'] as const) {
    if (tls[field] !== undefined && !isPem(tls[field])) {
      throw new TypeError(`${kind} "${name}": tls.${field} must be PEM text or bytes`);
    }
  }
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new TypeError(`${kind} "${name}": tls.cert and tls.key go together`);
  }
  if (
    tls.servername !== undefined &&
    (typeof tls.servername !== 'string' || tls.servername === '')
  ) {
    throw new TypeError(`${kind} "${name}": tls.servername must be a host name`);
  }
}

/** `results`: absent, or `{ maxTokens }` with a token budget the mounts accept. */
function checkResults(kind: string, name: string, results: unknown): void {
  if (results === undefined) return;
  if (!isRecord(results)) throw new TypeError(`${kind} "${name}": results must be an object`);
  checkMaxTokens(`${kind} "${name}": results.maxTokens`, results.maxTokens);
}

/** `retry`: absent (one attempt), or `{ attempts }` with an integer from 1 to the maximum. */
function checkRetryAttempts(kind: string, name: string, retry: unknown): number {
  if (retry === undefined) return 1;
  const attempts = (retry as { attempts?: unknown } | null)?.attempts;
  if (
    typeof attempts !== 'number' ||
    !Number.isInteger(attempts) ||
    attempts < 1 ||
    attempts > MAX_RETRY_ATTEMPTS
  ) {
    throw new RangeError(
      `${kind} "${name}": retry.attempts must be an integer from 1 to ${MAX_RETRY_ATTEMPTS} (the first attempt included); got ${
        typeof attempts === 'number' ? String(attempts) : typeof attempts
      }`,
    );
  }
  return attempts;
}

/**
 * A connection's static headers (`option` names them in messages): a record of valid header
 * names with string values free of CR, LF and NUL, each wrapped so no snapshot shows it.
 */
export function checkStaticHeaders(
  kind: string,
  name: string,
  option: string,
  headers: unknown,
): Readonly<Record<string, SecretValue>> {
  if (headers === undefined) return secretHeaders(undefined);
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new TypeError(`${kind} "${name}": ${option} must be a record of strings`);
  }
  for (const [header, value] of Object.entries(headers)) {
    if (!isHttpToken(header) || typeof value !== 'string' || hasHeaderBreak(value)) {
      throw new TypeError(
        `${kind} "${name}": ${option}["${header}"] must be a valid header name with a string value free of CR, LF and NUL`,
      );
    }
  }
  return secretHeaders(headers as Record<string, string>);
}
