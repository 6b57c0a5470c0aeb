/**
 * The one way connection requests reach the network: fenced before any I/O, redirects refused,
 * cancellation honoured with the caller's exact reason.
 */

import type { OperationScope } from '../core/operation.js';
import { ConnectionUrlError } from '../errors/errors.js';
import { wireFailure } from '../errors/wire-failure.js';
import {
  cancelBody,
  raceAbort,
  throwIfAborted,
  type WireResponse,
} from '../read/abortable-read.js';
import { sendWithUndici, type WireRequest, type WireSend } from './http-client.js';
import { assertInsideFence, type HostFence } from './url-fence.js';

export type { WireRequest, WireSend } from './http-client.js';

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** Longest redirect path a refusal message quotes; a longer one is cut with `…`. */
export const MAX_REDIRECT_PATH_CHARS = 200;

/** Where a refused redirect pointed, as its refusal says it, and the target when it may be named. */
export interface RedirectTarget {
  /** Completes `refused a redirect (status N) …`, e.g. `to /mcp/` or `to another host`. */
  readonly described: string;
  /** The target when it stays on the request's host (query and fragment are dropped later). */
  readonly url: URL | undefined;
}

function quotedPath(path: string): string {
  return path.length > MAX_REDIRECT_PATH_CHARS
    ? `${path.slice(0, MAX_REDIRECT_PATH_CHARS)}…`
    : path;
}

/**
 * Where a redirect's `Location` points, said so a host can fix its configuration without leaking
 * anything: on the same origin, its path (percent-encoded, never the query or fragment); on the
 * same host with another scheme or port, that origin and path; on another host, only that it is
 * another host (the target is the server's word and is never named). Pure.
 */
export function describeRedirect(location: string | null, from: URL): RedirectTarget {
  let target: URL;
  try {
    if (location === null || location.trim() === '') throw new TypeError('no location');
    target = new URL(location, from);
  } catch {
    return { described: 'without a usable location', url: undefined };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return { described: 'to a non-HTTP URL', url: undefined };
  }
  if (target.hostname !== from.hostname) return { described: 'to another host', url: undefined };
  const path = quotedPath(target.pathname);
  if (target.origin === from.origin) return { described: `to ${path}`, url: target };
  return { described: `to ${target.origin}${path}`, url: target };
}

/**
 * Sends one request of the operation in `scope` inside `fence` and refuses any redirect: a 3xx has
 * its body cancelled and becomes a {@link ConnectionUrlError} that says where it pointed
 * ({@link describeRedirect}), because following it could carry the bearer elsewhere. An off-fence URL is refused before any I/O. `send` defaults to
 * {@link sendWithUndici} (one shared keep-alive pool, no redirects followed).
 */
export async function fetchWithoutRedirects(
  request: WireRequest,
  scope: OperationScope,
  fence: HostFence,
  send: WireSend = sendWithUndici,
): Promise<WireResponse> {
  assertInsideFence(request.url, fence, scope);
  const { signal } = request;
  throwIfAborted(signal);
  let pending: Promise<WireResponse>;
  try {
    pending = send(request);
  } catch (error) {
    // A sender (a host's dispatcher) that throws before it returns a promise: typed all the same.
    throw wireFailure(error, scope, signal);
  }
  // A sender that ignores the signal may still answer after the abort: its body must not linger.
  pending.then(
    (late) => {
      if (signal.aborted) cancelBody(late);
    },
    () => undefined,
  );
  let response: WireResponse;
  try {
    response = await raceAbort(pending, signal);
  } catch (error) {
    // Whatever the request failed with, typed at the wire's one seam (the caller's reason as is).
    throw wireFailure(error, scope, signal);
  }
  if (signal.aborted) {
    cancelBody(response);
    throw signal.reason;
  }
  if (isRedirect(response.status)) {
    cancelBody(response);
    const target = describeRedirect(response.headers.get('location'), request.url);
    throw new ConnectionUrlError({
      ...scope,
      refusal: `refused a redirect (status ${response.status}) ${target.described} during ${scope.operation}`,
      url: request.url,
      ...(target.url === undefined ? {} : { redirectTo: target.url }),
    });
  }
  return response;
}
