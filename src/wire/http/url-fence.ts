/**
 * The host fence: which URLs a connection may send requests (and so credentials) to.
 * Pure: no I/O. This is a host fence, not a DNS-rebinding or private-network classifier;
 * configured hosts are trusted, loopback included.
 */

import type { OperationScope } from '../core/operation.js';
import { ConnectionUrlError } from '../errors/errors.js';

/** The set of `host[:port]` values (lowercased) a connection may reach. */
export interface HostFence {
  /**
   * Lowercased hosts: a bare host admits it on its scheme's default port (`https://h/`,
   * `http://h/`); `host:port` admits it on that port, written or implied by the scheme.
   */
  readonly hosts: ReadonlySet<string>;
}

const HTTP_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/** The port a scheme implies when none is written. */
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** An explicit port at the end of an `allowHosts` entry (after an IPv6 literal's bracket). */
const WRITTEN_PORT = /[^:]:\d+$/;

/**
 * Parses a connection URL. Refuses (with {@link ConnectionUrlError}) anything unparseable, any
 * scheme but http(s), and userinfo, which would put a credential in every diagnostic.
 */
export function parseConnectionUrl(raw: string, connectionName: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    // The raw text may hold a token, so it is never echoed.
    throw new ConnectionUrlError({
      connectionName,
      refusal: 'has an unparseable URL',
      cause: error,
    });
  }
  if (!HTTP_PROTOCOLS.has(url.protocol)) {
    throw new ConnectionUrlError({
      connectionName,
      refusal: `must use http(s), got "${url.protocol}"`,
      url,
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConnectionUrlError({
      connectionName,
      refusal: 'URL must not carry userinfo; use a token provider',
      url,
    });
  }
  return url;
}

/** The entry as written, minus anything that could be a secret (userinfo, query, fragment). */
function describeEntry(entry: string): string {
  return entry.replace(/[?#].*$/s, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, '$1***@');
}

/** Normalizes one `allowHosts` entry through the URL parser, so ports and case match `URL.host`. */
function normalizeAllowedHost(entry: string, connectionName: string): string {
  const refuse = (): never => {
    throw new ConnectionUrlError({
      connectionName,
      refusal: `allowHosts entry "${describeEntry(entry)}" must be a bare host[:port]`,
    });
  };
  const trimmed = entry.trim();
  if (trimmed === '' || /[/\\@?#\s]/.test(trimmed) || trimmed.includes('://')) refuse();
  let parsed: URL;
  try {
    parsed = new URL(`http://${trimmed}`);
  } catch {
    return refuse();
  }
  if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '') refuse();
  const hostname = parsed.hostname.toLowerCase();
  // The parser drops a written `:80` (http's default); the entry still means that port only.
  const port = parsed.port !== '' ? parsed.port : WRITTEN_PORT.test(trimmed) ? '80' : '';
  return port === '' ? hostname : `${hostname}:${port}`;
}

/**
 * The fence of a connection: its own URL's host plus the normalized `allowHosts`. An entry with a
 * scheme, path, query or userinfo is refused with {@link ConnectionUrlError} naming the entry.
 */
export function createHostFence(
  connectionName: string,
  url: URL,
  allowHosts: readonly string[] = [],
): HostFence {
  const hosts = new Set<string>([url.host.toLowerCase()]);
  for (const host of normalizeAllowHosts(connectionName, allowHosts)) hosts.add(host);
  return Object.freeze({ hosts });
}

/**
 * The `allowHosts` entries as fence hosts (lowercased `host[:port]`); an entry with a scheme,
 * path, query or userinfo is refused with {@link ConnectionUrlError} naming the entry. For a
 * definition that checks them before it knows which URL the fence will grow from.
 */
export function normalizeAllowHosts(
  connectionName: string,
  allowHosts: readonly string[],
): readonly string[] {
  return allowHosts.map((entry) => normalizeAllowedHost(entry, connectionName));
}

/**
 * True for an http(s) URL without userinfo whose host is inside the fence: a bare fence host on
 * the URL's default port, or `host:port` with the URL's port, written or implied by its scheme.
 */
export function isInsideFence(url: URL, fence: HostFence): boolean {
  if (!HTTP_PROTOCOLS.has(url.protocol) || url.username !== '' || url.password !== '') return false;
  const hostname = url.hostname.toLowerCase();
  if (url.port === '' && fence.hosts.has(hostname)) return true;
  return fence.hosts.has(`${hostname}:${url.port === '' ? DEFAULT_PORTS[url.protocol] : url.port}`);
}

/** Throws {@link ConnectionUrlError} for the operation in `scope` unless {@link isInsideFence}. */
export function assertInsideFence(url: URL, fence: HostFence, scope: OperationScope): void {
  if (isInsideFence(url, fence)) return;
  throw new ConnectionUrlError({
    ...scope,
    refusal: `refused request to host "${url.host.toLowerCase()}": not the connection host or an allowed host`,
    url,
  });
}

/**
 * Resolves the data of a legacy SSE `endpoint` event against the connection URL. The result is
 * not fenced here: the caller fences it before any request (and so before any bearer) goes there.
 */
export function resolveEndpointUrl(data: string, base: URL, scope: OperationScope): URL {
  const trimmed = data.trim();
  if (trimmed === '') {
    throw new ConnectionUrlError({ ...scope, refusal: 'received an empty SSE endpoint' });
  }
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch (error) {
    throw new ConnectionUrlError({
      ...scope,
      refusal: 'received an unparseable SSE endpoint',
      cause: error,
    });
  }
  if (!HTTP_PROTOCOLS.has(url.protocol)) {
    throw new ConnectionUrlError({
      ...scope,
      refusal: 'received an SSE endpoint that is not http(s)',
      url,
    });
  }
  return url;
}
