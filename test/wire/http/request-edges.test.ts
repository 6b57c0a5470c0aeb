/**
 * The request path at its edges, on loopback or with a sender that answers when told: a header
 * sent twice, the first and last 3xx statuses, a redirect path exactly at the quoting limit, and
 * an answer that lands after the caller's abort (its body is cancelled, the caller sees the reason).
 */
import { describe, expect, it } from 'vitest';
import type { OperationScope } from '../../../src/wire/core/operation.js';
import { ConnectionUrlError } from '../../../src/wire/errors/errors.js';
import {
  describeRedirect,
  fetchWithoutRedirects,
  MAX_REDIRECT_PATH_CHARS,
  type WireSend,
} from '../../../src/wire/http/fetch-guarded.js';
import { sendWithUndici } from '../../../src/wire/http/http-client.js';
import { createHostFence } from '../../../src/wire/http/url-fence.js';
import type { WireResponse } from '../../../src/wire/read/abortable-read.js';
import { liveSignal, serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();

const SCOPE: OperationScope = { connectionName: 'c', operation: 'tools/call', phase: 'call' };

/** Reads a body to its end so its socket goes back to the pool. */
async function drain(response: WireResponse): Promise<void> {
  for await (const _chunk of response.body as AsyncIterable<Uint8Array>) {
    // Nothing to keep.
  }
}

/** Starts a server answering `status` and sends it one request; the outcome is not awaited. */
async function answeredWith(status: number): Promise<{ outcome: Promise<WireResponse> }> {
  const server = await serve((_req, res) => {
    res.writeHead(status, { location: '/moved' });
    res.end('x');
  });
  const url = new URL('/mcp', server.origin);
  const outcome = fetchWithoutRedirects(
    { url, method: 'GET', headers: {}, signal: liveSignal() },
    SCOPE,
    createHostFence('c', url),
  );
  return { outcome };
}

describe('sendWithUndici heads', () => {
  it('joins a header sent twice with ", "', async () => {
    const server = await serve((_req, res) => {
      res.setHeader('x-twice', ['a', 'b']);
      res.end();
    });
    const response = await sendWithUndici({
      url: new URL('/', server.origin),
      method: 'GET',
      headers: {},
      signal: liveSignal(),
    });
    await drain(response);
    expect(response.headers.get('x-twice')).toBe('a, b');
    expect(response.headers.get('x-absent')).toBeNull();
  });

  it.each([
    [299, true],
    [300, false],
  ])('a %s answer is ok: %s', async (status, ok) => {
    const server = await serve((_req, res) => res.writeHead(status).end());
    const response = await sendWithUndici({
      url: new URL('/', server.origin),
      method: 'GET',
      headers: {},
      signal: liveSignal(),
    });
    await drain(response);
    expect(response.ok).toBe(ok);
  });
});

describe('fetchWithoutRedirects at the edges of 3xx', () => {
  it('refuses a 300 as a redirect', async () => {
    await expect((await answeredWith(300)).outcome).rejects.toThrow(
      'Connection "c" refused a redirect (status 300) to /moved during tools/call',
    );
  });

  it('refuses a 399 and returns a 400 as it came', async () => {
    await expect((await answeredWith(399)).outcome).rejects.toBeInstanceOf(ConnectionUrlError);
    const response = await (await answeredWith(400)).outcome;
    expect(response).toMatchObject({ status: 400, ok: false });
    await drain(response);
  });

  it('quotes a path exactly at the limit whole, and one past it cut', () => {
    const from = new URL('https://api.example.test/mcp');
    const atLimit = `/${'a'.repeat(MAX_REDIRECT_PATH_CHARS - 1)}`;
    expect(describeRedirect(atLimit, from).described).toBe(`to ${atLimit}`);
    expect(describeRedirect(`${atLimit}b`, from).described).toBe(`to ${atLimit}…`);
  });
});

describe('an answer that lands after the caller aborted', () => {
  /** A body that records its cancellation. */
  function recordedBody(): { body: ReadableStream<Uint8Array>; cancelled: () => boolean } {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      cancel() {
        cancelled = true;
      },
    });
    return { body, cancelled: () => cancelled };
  }

  const fence = createHostFence('c', new URL('http://h.example.test/'));
  const url = new URL('http://h.example.test/mcp');

  it('cancels the body of an answer a sender gives after the abort', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline state left');
    let answer: ((response: WireResponse) => void) | undefined;
    const ignoringSend: WireSend = () =>
      new Promise<WireResponse>((resolve) => {
        answer = resolve;
      });
    const request = fetchWithoutRedirects(
      { url, method: 'GET', headers: {}, signal: controller.signal },
      SCOPE,
      fence,
      ignoringSend,
    );
    controller.abort(reason);
    await expect(request).rejects.toBe(reason);
    const late = recordedBody();
    answer?.({ status: 200, ok: true, headers: new Headers(), body: late.body });
    await expect.poll(late.cancelled).toBe(true);
  });

  it('rejects with the reason and cancels the body when the abort lands as the answer arrives', async () => {
    const controller = new AbortController();
    const reason = new Error('caller stopped');
    const arrived = recordedBody();
    const answeringSend: WireSend = () => {
      const answer = Promise.resolve<WireResponse>({
        status: 200,
        ok: true,
        headers: new Headers(),
        body: arrived.body,
      });
      // Queued behind the wire's own handlers on the answer: the abort comes once the answer
      // is in and before the wire looks at it again.
      answer.then(() => queueMicrotask(() => controller.abort(reason)));
      return answer;
    };
    await expect(
      fetchWithoutRedirects(
        { url, method: 'GET', headers: {}, signal: controller.signal },
        SCOPE,
        fence,
        answeringSend,
      ),
    ).rejects.toBe(reason);
    expect(arrived.cancelled()).toBe(true);
  });
});
