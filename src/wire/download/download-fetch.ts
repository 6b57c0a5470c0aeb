/**
 * The guarded download fetch (ADR 0081, decision 0010): one `GET` to an arbitrary public host.
 * http(s) only; special-use names, non-canonical numbers and every non-public address are
 * refused unless `allowPrivateHosts`; a name is resolved once per hop, every answer is checked,
 * and the connection goes to the checked address (the dispatcher's `lookup` only ever returns
 * it, so no second DNS answer can slip in between check and connect). At most 5 redirects, each
 * hop checked again; credential headers never cross to another origin. Deadlines are the
 * caller's: the download machine aborts `signal` when one passes.
 */

import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { AGENT_OPTIONS, requestOn } from '../http/http-client.js';
import { type Agent, type Dispatcher, loadUndici, type Undici } from '../http/undici-lazy.js';
import type { NodeBody, WireResponse } from '../read/abortable-read.js';
import { raceAbort, throwIfAborted } from '../read/abortable-read.js';
import { addressRefusal, hostRefusal, writtenHost } from './address-policy.js';
import { DownloadError, downloadFailure } from './download-error.js';

/** One answer of a name lookup. */
export interface ResolvedAddress {
  /** The address, IPv4 dotted or IPv6 without brackets. */
  readonly address: string;
  /** Its family. */
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (default: the system resolver, `all: true`). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Default number of redirects a download follows. */
export const MAX_DOWNLOAD_REDIRECTS = 5;

/** Headers that carry credentials; they are dropped when a redirect leaves the origin. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
]);

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Options of {@link fetchForDownload}. */
export interface DownloadFetchOptions {
  /** Aborting it stops the fetch at once with `signal.reason` (deadlines and cancellation). */
  readonly signal: AbortSignal;
  /** Allow loopback, private and other non-public hosts; default false. */
  readonly allowPrivateHosts?: boolean;
  /** `host[:port]` values (as `URL.host` spells them) exempt from the address refusal. */
  readonly allowHosts?: readonly string[];
  /** Name resolution; default the system resolver. Tests inject one. */
  readonly resolveHost?: HostResolver;
  /** Redirects followed at most; default {@link MAX_DOWNLOAD_REDIRECTS}. */
  readonly maxRedirects?: number;
  /** Request headers for the first origin; credential headers do not follow a cross-origin hop. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Sends every hop through a proxy: `'env'` reads `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` per
   * hop; a URL uses that proxy. The proxy is asked to tunnel to the address this download checked
   * (never the name, which the proxy would resolve again), with the name as `Host` and as the TLS
   * name to verify. Default: no proxy.
   */
  readonly proxy?: 'env' | URL;
}

/** The final response of a download, body unread. */
export interface DownloadResponse extends WireResponse {
  /** The body as undici gives it. */
  readonly body: NodeBody;
  /** The URL that answered (after redirects). */
  readonly url: URL;
  /** Redirects followed. */
  readonly redirects: number;
  /** Closes the download's connection; call it once the body is read or abandoned. */
  release(): void;
}

const systemResolver: HostResolver = async (hostname) => {
  const answers: LookupAddress[] = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({
    address: answer.address,
    family: answer.family === 6 ? 6 : 4,
  }));
};

/** Parses a download URL: absolute, http(s), no user info; else `DOWNLOAD_INVALID_URL`. */
export function parseDownloadUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch (cause) {
    throw new DownloadError({ code: 'DOWNLOAD_INVALID_URL', detail: 'not a URL', cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DownloadError({ code: 'DOWNLOAD_INVALID_URL', detail: 'only http and https' });
  }
  if (url.username !== '' || url.password !== '') {
    throw new DownloadError({ code: 'DOWNLOAD_INVALID_URL', detail: 'credentials in the URL' });
  }
  return url;
}

/** A one-download dispatcher whose `lookup` answers only with addresses this module checked. */
function pinnedAgent(undici: Undici, pins: ReadonlyMap<string, ResolvedAddress>): Agent {
  type Callback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;
  const lookup = (hostname: string, options: { all?: boolean }, callback: Callback): void => {
    const pinned = pins.get(hostname.toLowerCase());
    if (pinned === undefined) {
      callback(new Error('refused to connect to an unchecked host'), '');
      return;
    }
    if (options.all === true) callback(null, [{ ...pinned }]);
    else callback(null, pinned.address, pinned.family);
  };
  return new undici.Agent({
    ...AGENT_OPTIONS,
    connect: { lookup: lookup as never },
    pipelining: 0,
  });
}

/**
 * The address to connect to for `url`, after every check: `undefined` for an IP literal (the
 * socket connects to it without a lookup), else the first resolved address. Throws
 * `DOWNLOAD_HOST_REFUSED` (no connection is attempted).
 */
async function checkedAddress(
  url: URL,
  written: string | undefined,
  options: DownloadFetchOptions,
): Promise<ResolvedAddress | undefined> {
  const exempt =
    options.allowPrivateHosts === true ||
    (options.allowHosts ?? []).some((host) => host.toLowerCase() === url.host.toLowerCase());
  const refused = (refusal: ReturnType<typeof hostRefusal>): never => {
    throw new DownloadError({ code: 'DOWNLOAD_HOST_REFUSED', refusal, host: url.host });
  };
  const refusal = hostRefusal(url, written);
  if (refusal !== undefined && !exempt) refused(refusal);
  if (url.hostname.startsWith('[') || /^[0-9.]+$/.test(url.hostname)) return undefined;
  const resolve = options.resolveHost ?? systemResolver;
  let answers: readonly ResolvedAddress[];
  try {
    answers = await raceAbort(resolve(url.hostname), options.signal);
  } catch (cause) {
    if (options.signal.aborted) throw options.signal.reason;
    throw new DownloadError({ code: 'DOWNLOAD_FAILED', host: url.host, cause });
  }
  const [first] = answers;
  if (first === undefined) throw new DownloadError({ code: 'DOWNLOAD_FAILED', host: url.host });
  if (!exempt) {
    for (const answer of answers) {
      const answerRefusal = addressRefusal(answer.address);
      if (answerRefusal !== undefined) refused(answerRefusal);
    }
  }
  return first;
}

function withoutCredentials(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())),
  );
}

function headerOf(headers: Record<string, string | string[] | undefined>, name: string) {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Fetches `target` for a download and resolves with the final 2xx-or-not response (body unread;
 * the caller judges the status). Refusals are {@link DownloadError}s: `DOWNLOAD_INVALID_URL`,
 * `DOWNLOAD_HOST_REFUSED` (before any connection to that host), `DOWNLOAD_REDIRECT_REFUSED`
 * (too many, or no usable `Location`), `DOWNLOAD_FAILED` (resolution or connection). An abort
 * rejects with the exact `signal.reason`.
 */
export async function fetchForDownload(
  target: string,
  options: DownloadFetchOptions,
): Promise<DownloadResponse> {
  const { signal } = options;
  throwIfAborted(signal);
  const maxRedirects = options.maxRedirects ?? MAX_DOWNLOAD_REDIRECTS;
  const pins = new Map<string, ResolvedAddress>();
  const made: Dispatcher[] = [];
  const release = (): void => {
    for (const dispatcher of made) dispatcher.destroy().catch(() => undefined);
  };
  let url = parseDownloadUrl(target);
  let written = writtenHost(target);
  let headers: Record<string, string> = { ...options.headers };
  try {
    const undici = await loadUndici();
    const agent = pinnedAgent(undici, pins);
    made.push(agent);
    for (let redirects = 0; ; redirects++) {
      const address = await checkedAddress(url, written, options);
      if (address !== undefined) pins.set(url.hostname.toLowerCase(), address);
      throwIfAborted(signal);
      const proxy = proxyFor(url, options.proxy);
      const hop =
        proxy === undefined
          ? requestOn(agent, url, { method: 'GET', headers, signal })
          : throughProxy(undici, proxy, url, address, headers, signal, made);
      const answer = await raceAbort(hop, signal);
      // An abort destroys the body with an error; an unread body must not make it unhandled.
      answer.body.on('error', () => undefined);
      if (!REDIRECT_STATUSES.has(answer.statusCode)) {
        const status = answer.statusCode;
        return {
          status,
          ok: status >= 200 && status < 300,
          headers: { get: (name) => headerOf(answer.headers, name.toLowerCase()) },
          body: new TypedDownloadBody(answer.body, url.host, signal),
          url,
          redirects,
          release,
        };
      }
      answer.body.destroy();
      const location = headerOf(answer.headers, 'location');
      if (redirects >= maxRedirects || location === null) {
        throw new DownloadError({
          code: 'DOWNLOAD_REDIRECT_REFUSED',
          upstreamStatus: answer.statusCode,
          detail: location === null ? 'no Location' : `more than ${maxRedirects} redirects`,
        });
      }
      const next = parseRedirect(location, url);
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      // A relative Location stays on the host already checked as written.
      written = writtenHost(location);
      url = next;
    }
  } catch (error) {
    release();
    // Typed at the wire's one seam: which failure (refused, reset, TLS, a broken answer...), never
    // where; the caller's reason as is.
    throw downloadFailure(error, url.host, signal);
  }
}

/**
 * A download's body as undici gives it, read through the wire's seam: whatever cuts it (a reset, a
 * body shorter or longer than its `content-length`, a broken framing) reaches the writer as a
 * `DOWNLOAD_FAILED`, the caller's abort as its reason. Read by iteration, as the file boundary
 * reads every body.
 */
class TypedDownloadBody implements NodeBody {
  constructor(
    private readonly raw: NodeBody,
    private readonly host: string,
    private readonly signal: AbortSignal,
  ) {}

  get readableEnded(): boolean | undefined {
    return this.raw.readableEnded;
  }

  destroy(error?: Error): unknown {
    return this.raw.destroy(error);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    try {
      for await (const chunk of this.raw) yield chunk;
    } catch (error) {
      throw downloadFailure(error, this.host, this.signal);
    }
  }
}

/** The proxy for `url` under `option`, or `undefined` when the hop goes direct. */
function proxyFor(url: URL, option: DownloadFetchOptions['proxy']): URL | undefined {
  if (option === undefined || option instanceof URL) return option;
  const env = process.env;
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? '')
    .split(/[\s,]+/)
    .filter((entry) => entry !== '');
  const host = url.hostname.toLowerCase();
  const bypassed = noProxy.some((entry) => {
    if (entry === '*') return true;
    const [name = '', port] = entry
      .toLowerCase()
      .replace(/^\*?\./, '.')
      .split(/:(?=\d+$)/);
    if (port !== undefined && port !== (url.port || (url.protocol === 'https:' ? '443' : '80'))) {
      return false;
    }
    const bare = name.replace(/^\./, '');
    return host === bare || host.endsWith(`.${bare}`);
  });
  if (bypassed) return undefined;
  const chosen =
    url.protocol === 'https:'
      ? (env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy)
      : (env.HTTP_PROXY ?? env.http_proxy);
  return chosen === undefined || chosen === '' ? undefined : new URL(chosen);
}

/**
 * One hop through `proxy`: a tunnel to the checked `address` (or the literal the URL names), the
 * URL's host as `Host`, and for https the URL's name as the name the certificate must carry.
 */
function throughProxy(
  undici: Undici,
  proxy: URL,
  url: URL,
  address: ResolvedAddress | undefined,
  headers: Record<string, string>,
  signal: AbortSignal,
  proxied: Dispatcher[],
): Promise<Dispatcher.ResponseData> {
  const named = address !== undefined;
  const dialled = new URL(url.href);
  if (named) dialled.hostname = address.family === 6 ? `[${address.address}]` : address.address;
  const dispatcher = new undici.ProxyAgent({
    ...AGENT_OPTIONS,
    uri: proxy.href,
    ...(named && url.protocol === 'https:' ? { requestTls: { servername: url.hostname } } : {}),
  });
  proxied.push(dispatcher);
  return requestOn(dispatcher, dialled, {
    method: 'GET',
    headers: { ...headers, host: url.host },
    signal,
  });
}

function parseRedirect(location: string, from: URL): URL {
  try {
    return parseDownloadUrl(location, from);
  } catch (cause) {
    throw new DownloadError({
      code: 'DOWNLOAD_REDIRECT_REFUSED',
      detail: 'unusable Location',
      cause,
    });
  }
}
