/**
 * The HTTP client under every connection request: undici's `request` API (decision 0008), on one
 * keep-alive pool of our own for the whole process (no per-call dispatcher, no
 * `connection: close`; the host's dispatcher settings never reach our requests). It follows no
 * redirect and aborts with the exact `signal.reason`. The fence, the redirect refusal and the byte
 * bounds are the callers'.
 */
import { Agent, request } from 'undici';
import type { NodeBody, WireResponse } from './abortable-read.js';

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

/** The default {@link WireSend}: undici's `request` on the shared keep-alive pool. */
export const sendWithUndici: WireSend = async (wire) => {
  pool ??= new Agent();
  const answer = await request(wire.url, {
    dispatcher: pool,
    method: wire.method,
    headers: wire.headers,
    signal: wire.signal,
    ...(wire.body === undefined ? {} : { body: wire.body }),
  });
  // An abort destroys the body with an error; the readers see it through iteration, so an
  // unread body must not turn it into an unhandled 'error' event.
  answer.body.on('error', () => undefined);
  return new UndiciResponse(answer.statusCode, answer.headers, answer.body);
};
