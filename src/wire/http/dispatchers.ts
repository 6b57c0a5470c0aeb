/**
 * A connection's own dispatcher, when its requests must not share the process-wide pool: through
 * a proxy (`proxy: 'env'` reads `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY`; `proxy: '<url>'`), with
 * its own TLS trust or client certificate (`tls`), or one the host built (`dispatcher`). Every
 * agent made here has the library's options (no undici timeouts, the head bound); TLS always
 * verifies. The fence, the redirect refusal and the byte bounds are the callers' and judge the
 * target: a proxy only carries the tunnel (`CONNECT`), so the target's headers never reach it.
 */
import { AGENT_OPTIONS, sendOn, type WireSend } from './http-client.js';
import { type Dispatcher, loadUndici, type Undici } from './undici-lazy.js';

/** PEM text or its bytes, one or several. */
export type PemInput = string | Buffer | readonly (string | Buffer)[];

/** TLS options of a connection: a private CA, a client certificate, the name to verify. */
export interface ConnectionTls {
  /** Certificate authorities to trust instead of Node's default list (PEM). */
  readonly ca?: PemInput;
  /** Client certificate for mutual TLS (PEM); needs `key`. */
  readonly cert?: PemInput;
  /** The client certificate's private key (PEM). */
  readonly key?: PemInput;
  /** The server name to send (SNI) and verify, when it differs from the URL's host. */
  readonly servername?: string;
}

/** How a connection reaches the network, as its definition says. */
export interface ConnectionNetworkOptions {
  readonly proxy?: 'env' | URL | undefined;
  readonly tls?: ConnectionTls | undefined;
  readonly dispatcher?: Dispatcher | undefined;
}

/**
 * A `proxy` option as given: `'env'`, an http(s) proxy URL, or absent; anything else is
 * `undefined` with `valid: false`, for the caller's own message. Pure.
 */
export function parseProxyOption(
  proxy: unknown,
): { readonly valid: true; readonly proxy: 'env' | URL | undefined } | { readonly valid: false } {
  if (proxy === undefined || proxy === 'env') return { valid: true, proxy };
  if (typeof proxy === 'string' && URL.canParse(proxy)) {
    const url = new URL(proxy);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { valid: true, proxy: url };
  }
  return { valid: false };
}

function tlsOptions(tls: ConnectionTls): Record<string, unknown> {
  return {
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(tls.servername === undefined ? {} : { servername: tls.servername }),
    // Verification is never turned off, whatever else is given.
    rejectUnauthorized: true,
  };
}

/**
 * The sender of a connection with network options, or `undefined` when it has none (its requests
 * then share the pool). A dispatcher the host built is used as given; one made from `proxy` or
 * `tls` is made on the connection's first request, when undici is loaded (decision 0048), and kept
 * for every later one. `proxy: 'env'` therefore reads the environment at that first request.
 */
export function connectionSend(options: ConnectionNetworkOptions): WireSend | undefined {
  if (options.dispatcher !== undefined) return sendOn(options.dispatcher);
  if (options.proxy === undefined && options.tls === undefined) return undefined;
  let made: WireSend | undefined;
  return async (wire) => {
    made ??= sendOn(ownDispatcher(await loadUndici(), options));
    return made(wire);
  };
}

function ownDispatcher(undici: Undici, options: ConnectionNetworkOptions): Dispatcher {
  const tls = options.tls === undefined ? undefined : tlsOptions(options.tls);
  if (options.proxy === 'env') {
    return new undici.EnvHttpProxyAgent({
      ...AGENT_OPTIONS,
      ...(tls === undefined ? {} : { connect: tls, requestTls: tls }),
    });
  }
  if (options.proxy !== undefined) {
    return new undici.ProxyAgent({
      ...AGENT_OPTIONS,
      uri: options.proxy.href,
      ...(tls === undefined ? {} : { requestTls: tls }),
    });
  }
  return new undici.Agent({ ...AGENT_OPTIONS, connect: tls });
}
