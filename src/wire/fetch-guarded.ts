/**
 * The one way connection requests reach the network: fenced before any I/O, redirects refused,
 * cancellation honoured with the caller's exact reason.
 */
import { raceAbort, throwIfAborted } from './abortable-read.js';
import { cancelBody } from './bounded-body.js';
import { ConnectionUrlError } from './errors.js';
import type { OperationScope } from './operation.js';
import { assertInsideFence, type HostFence } from './url-fence.js';

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

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/**
 * Sends one request of the operation in `scope` inside `fence` and refuses any redirect: a 3xx has
 * its body cancelled and becomes a {@link ConnectionUrlError}, because following it could carry the
 * bearer elsewhere. An off-fence URL is refused before any I/O. Keep-alive stays on: no
 * `connection: close`, no per-call dispatcher. `doFetch` defaults to the global `fetch`, whose
 * keep-alive pool is shared.
 */
export async function fetchWithoutRedirects(
  request: WireRequest,
  scope: OperationScope,
  fence: HostFence,
  doFetch: typeof fetch = fetch,
): Promise<Response> {
  assertInsideFence(request.url, fence, scope);
  const { signal } = request;
  throwIfAborted(signal);
  const init: RequestInit = {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    signal,
  };
  if (request.body !== undefined) init.body = request.body;
  const pending = doFetch(request.url, init);
  // A fetch that ignores the signal may still answer after the abort: its body must not linger.
  pending.then(
    (late) => {
      if (signal.aborted) cancelBody(late);
    },
    () => undefined,
  );
  let response: Response;
  try {
    response = await raceAbort(pending, signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  }
  if (signal.aborted) {
    cancelBody(response);
    throw signal.reason;
  }
  if (isRedirect(response.status) || response.type === 'opaqueredirect') {
    cancelBody(response);
    throw new ConnectionUrlError({
      ...scope,
      refusal: `refused a redirect (status ${response.status}) during ${scope.operation}`,
      url: request.url,
    });
  }
  return response;
}
