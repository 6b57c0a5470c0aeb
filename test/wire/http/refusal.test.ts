/**
 * How a refused answer is read (decision 0041), against real answers on 127.0.0.1: a 401's body
 * cancelled unread, any other body read to its excerpt within the ceiling, the challenge and the
 * `Retry-After` present only when sent.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { challengeField } from '../../../src/wire/core/www-authenticate.js';
import { ConnectionResponseTooLargeError } from '../../../src/wire/errors/errors.js';
import { sendWithUndici } from '../../../src/wire/http/http-client.js';
import { isUnauthorizedStatus, readRefusal } from '../../../src/wire/http/refusal.js';
import type { ReadBudget } from '../../../src/wire/read/bounded-body.js';
import { serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();

const MAX_BYTES = 1_000;

/**
 * The refusal `answer` is read as, within {@link MAX_BYTES} and a 2 s deadline (so a reader that
 * waits on a body fails with the deadline's reason, not the test's timeout).
 */
async function refusalOf(
  status: number,
  headers: Record<string, string>,
  answer: (res: ServerResponse) => void,
) {
  const server = await serve((_req, res) => {
    res.writeHead(status, headers);
    answer(res);
  });
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(new Error('deadline')), 2_000);
  const { signal } = controller;
  try {
    const url = new URL('/mcp', server.origin);
    const response = await sendWithUndici({ url, method: 'POST', headers: {}, signal });
    const budget: ReadBudget = {
      connectionName: 'c',
      operation: 'tools/call',
      phase: 'call',
      maxBytes: MAX_BYTES,
      signal,
    };
    return await readRefusal(response, budget).catch((error: unknown) => error);
  } finally {
    clearTimeout(deadline);
  }
}

describe('isUnauthorizedStatus', () => {
  it('is true for 401 alone', () => {
    const statuses = [200, 204, 400, 401, 402, 403, 404, 407, 429, 500, 503];
    expect(statuses.filter(isUnauthorizedStatus)).toEqual([401]);
  });
});

describe('challengeField', () => {
  it('is an empty object without a challenge: no `challenge` key at all', () => {
    expect(Object.keys(challengeField(undefined))).toEqual([]);
  });

  it('holds the challenge it is given', () => {
    const challenge = { scheme: 'bearer', scope: 'files:read' };
    expect(challengeField(challenge)).toEqual({ challenge });
  });
});

describe('readRefusal', () => {
  it('cancels a 401 body that never ends, and keeps its challenge', async () => {
    const refusal = await refusalOf(
      401,
      { 'www-authenticate': 'Bearer resource_metadata="https://a.test/meta", scope="files:read"' },
      (res) => res.write('sign in first'),
    );
    expect(refusal).toStrictEqual({
      status: 401,
      body: '',
      challenge: { scheme: 'bearer', resourceMetadata: 'https://a.test/meta', scope: 'files:read' },
    });
  });

  it('cancels a 401 body past the byte ceiling: still a refusal, never a size failure', async () => {
    const refusal = await refusalOf(401, {}, (res) => res.end('x'.repeat(MAX_BYTES * 4)));
    expect(refusal).toStrictEqual({ status: 401, body: '' });
  });

  it("reads a 403's excerpt and its step-up challenge", async () => {
    const refusal = await refusalOf(
      403,
      { 'www-authenticate': 'Bearer error="insufficient_scope", scope="files:write"' },
      (res) => res.end('not yours'),
    );
    expect(refusal).toStrictEqual({
      status: 403,
      body: 'not yours',
      challenge: { scheme: 'bearer', error: 'insufficient_scope', scope: 'files:write' },
    });
  });

  it("reads a 429's Retry-After in ms", async () => {
    const refusal = await refusalOf(429, { 'retry-after': '2' }, (res) => res.end('slow down'));
    expect(refusal).toStrictEqual({ status: 429, body: 'slow down', retryAfterMs: 2_000 });
  });

  it('keeps the first 512 characters of a long body, and no field it was not sent', async () => {
    const refusal = await refusalOf(500, {}, (res) => res.end('e'.repeat(900)));
    expect(refusal).toStrictEqual({ status: 500, body: 'e'.repeat(512) });
  });

  it('refuses another status whose body is past the ceiling as too large', async () => {
    const error = await refusalOf(500, {}, (res) => res.end('x'.repeat(MAX_BYTES * 4)));
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({ maxBytes: MAX_BYTES, operation: 'tools/call' });
  });
});
