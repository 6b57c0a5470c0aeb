/**
 * A fake of the wire's `send` for driving the real OpenAPI actors without sockets: every request
 * is recorded and left pending until the test answers it (a response head with an in-memory
 * body) or fails it. Answers settle in microtasks only, so fake timers never hold them back.
 */
import type { WireRequest, WireResponse, WireSend } from '../../src/wire/index.js';

/** An answer as the server would give it. */
export interface WireAnswer {
  readonly status: number;
  readonly contentType: string | null;
  /** The body's chunks (UTF-8); `[]` for none. */
  readonly chunks: readonly string[];
  /** Whether the body stops after its chunks without ending (a stalled upload). */
  readonly stalls?: boolean;
}

/** A one-chunk answer. */
export function answer(status: number, contentType: string | null, body: string): WireAnswer {
  return { status, contentType, chunks: body === '' ? [] : [body] };
}

/** A response head and an in-memory Node-style body for `answer`. */
export function wireResponse(wire: WireAnswer): WireResponse {
  const chunks = wire.chunks.map((chunk) => new TextEncoder().encode(chunk));
  let destroyed = false;
  return {
    status: wire.status,
    ok: wire.status >= 200 && wire.status < 300,
    headers: {
      get: (name) => (name.toLowerCase() === 'content-type' ? wire.contentType : null),
    },
    body: {
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) {
          if (destroyed) return;
          yield chunk;
        }
        // A stalled body never ends; the reader's abort race releases it.
        if (wire.stalls === true) await new Promise<never>(() => undefined);
      },
      destroy: () => {
        destroyed = true;
      },
    },
  };
}

/** A `send` whose requests wait for the test. */
export interface DeferredSend {
  readonly send: WireSend;
  /** Every request sent, in order (headers copied). */
  readonly requests: WireRequest[];
  /** Answers the latest pending request. */
  answer(wire: WireAnswer): void;
  /** Fails the latest pending request with `error`. */
  fail(error: unknown): void;
  /** Forgets the pending request (not the recorded ones). */
  reset(): void;
}

/** Creates a {@link DeferredSend}. */
export function deferredSend(): DeferredSend {
  const requests: WireRequest[] = [];
  let pending: { resolve(response: WireResponse): void; reject(error: unknown): void } | undefined;
  const take = () => {
    if (pending === undefined) throw new Error('no request is pending');
    const current = pending;
    pending = undefined;
    return current;
  };
  return {
    send: (request) =>
      new Promise<WireResponse>((resolve, reject) => {
        requests.push({ ...request, headers: { ...request.headers } });
        pending = { resolve, reject };
      }),
    requests,
    answer: (wire) => take().resolve(wireResponse(wire)),
    fail: (error) => take().reject(error),
    reset: () => {
      pending = undefined;
    },
  };
}
