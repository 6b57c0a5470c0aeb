/**
 * The one way connection requests reach the network: fenced before any I/O, redirects refused,
 * cancellation honoured with the caller's exact reason.
 */
import { cancelBody, raceAbort, throwIfAborted, type WireResponse } from './abortable-read.js';
import { ConnectionUrlError } from './errors.js';
import { sendWithUndici, type WireRequest, type WireSend } from './http-client.js';
import type { OperationScope } from './operation.js';
import { assertInsideFence, type HostFence } from './url-fence.js';

export type { WireRequest, WireSend } from './http-client.js';

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/**
 * Sends one request of the operation in `scope` inside `fence` and refuses any redirect: a 3xx has
 * its body cancelled and becomes a {@link ConnectionUrlError}, because following it could carry the
 * bearer elsewhere. An off-fence URL is refused before any I/O. `send` defaults to
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
  const pending = send(request);
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
    if (signal.aborted) throw signal.reason;
    throw error;
  }
  if (signal.aborted) {
    cancelBody(response);
    throw signal.reason;
  }
  if (isRedirect(response.status)) {
    cancelBody(response);
    throw new ConnectionUrlError({
      ...scope,
      refusal: `refused a redirect (status ${response.status}) during ${scope.operation}`,
      url: request.url,
    });
  }
  return response;
}
