/**
 * The HTTP client under every connection request: undici's `request` API (decision 0008), on one
 * keep-alive pool of our own for the whole process (no per-call dispatcher, no
 * `connection: close`; the host's dispatcher settings never reach our requests). It follows no
 * redirect and aborts with the exact `signal.reason`. The fence, the redirect refusal and the byte
 * bounds are the callers'.
 */

import { MAX_HEADER_BYTES } from '../errors/wire-failure.js';
import type { NodeBody, WireResponse } from '../read/abortable-read.js';
import { type Agent, type Dispatcher, loadUndici } from './undici-lazy.js';

/**
 * The options of every agent this library creates. undici's own timeouts are off: a head awaited
 * for 300 s, or 300 s between two body chunks, would otherwise fail with undici's
 * `HeadersTimeoutError` or `BodyTimeoutError` however long the connection's deadline is. Every
 * wait is bounded by a machine deadline instead, which aborts the request with its exact reason.
 * The head is bounded by {@link MAX_HEADER_BYTES}.
 */
export const AGENT_OPTIONS = {
  headersTimeout: 0,
  bodyTimeout: 0,
  maxHeaderSize: MAX_HEADER_BYTES,
} as const;

/** The pool every connection request shares; created on the first request. */
let pool: Agent | undefined;

/** One HTTP request. */
export interface WireRequest {
  /** Target; must be inside the scope's fence. */
  url: URL;
  /** HTTP method. */
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH' | 'HEAD';
  /** Request headers, sent as given. */
  headers: Record<string, string>;
  /** Request body, if any. */
  body?: string;
  /** Aborting it stops the request; the promise rejects with `signal.reason`. */
  signal: AbortSignal;
}

/** Sends one request and resolves with its head and unread body; never follows a redirect. */
export type WireSend = (request: WireRequest) => Promise<WireResponse>;

type HeaderValue = string | string[] | undefined;

/** undici's header record behind the `get` the readers use (a list is joined with `, `). */
class UndiciHeaders {
  constructor(private readonly raw: Record<string, HeaderValue>) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

/** A response head as undici gives it. */
class UndiciResponse implements WireResponse {
  readonly ok: boolean;
  readonly headers: UndiciHeaders;

  constructor(
    readonly status: number,
    rawHeaders: Record<string, HeaderValue>,
    readonly body: NodeBody,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new UndiciHeaders(rawHeaders);
  }
}

/** What {@link requestOn} sends: a method, headers exactly as given, an abort signal, a body. */
export interface DispatchOptions {
  readonly method: WireRequest['method'];
  readonly headers: Record<string, string>;
  readonly signal: AbortSignal;
  readonly body?: string;
}

/**
 * Sends one request on `dispatcher` through undici's `request` API, called on the dispatcher itself
 * with the origin and path it takes (the fragment is never sent). undici's top-level
 * `request(url, options)` reads the same two from the URL and copies the options into a new object
 * before it dispatches, which costs CPU on every request (decision 0020). undici follows no
 * redirect on this API.
 *
 * The answer is not raced against the signal here: undici records an abort that comes while its
 * connection is being made and rejects only once the connection is made or fails, so each caller
 * races it once (`fetchWithoutRedirects` for every connection request, the download's hop loop for
 * each hop; decision 0020).
 */
export function requestOn(
  dispatcher: Dispatcher,
  url: URL,
  options: DispatchOptions,
): Promise<Dispatcher.ResponseData> {
  return dispatcher.request({
    origin: url.origin,
    path: url.search === '' ? url.pathname : `${url.pathname}${url.search}`,
    method: options.method,
    headers: options.headers,
    signal: options.signal,
    body: options.body ?? null,
  });
}

/** Takes a body's 'error' event and does nothing with it (see {@link responseOf}). */
const IGNORE = (): void => undefined;

/** The wire's response of an undici answer. */
function responseOf(answer: Dispatcher.ResponseData): WireResponse {
  // An abort destroys the body with an error; the readers see it through iteration, so an
  // unread body must not turn it into an unhandled 'error' event.
  answer.body.on('error', IGNORE);
  return new UndiciResponse(answer.statusCode, answer.headers, answer.body);
}

/** One request on `dispatcher` (a chained promise, not an async frame held per request). */
function sendOnDispatcher(dispatcher: Dispatcher, wire: WireRequest): Promise<WireResponse> {
  return requestOn(dispatcher, wire.url, wire).then(responseOf);
}

/**
 * The default {@link WireSend}: undici's `request` on the shared keep-alive pool, made on the first
 * request (undici is loaded then, decision 0048).
 */
export const sendWithUndici: WireSend = (wire) => {
  if (pool !== undefined) return sendOnDispatcher(pool, wire);
  return loadUndici().then((undici) => {
    pool ??= new undici.Agent(AGENT_OPTIONS);
    return sendOnDispatcher(pool, wire);
  });
};

/** A {@link WireSend} on a connection's own dispatcher (its proxy, its TLS), never the pool. */
export function sendOn(dispatcher: Dispatcher): WireSend {
  return (wire) => sendOnDispatcher(dispatcher, wire);
}
