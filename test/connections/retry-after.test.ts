/**
 * `Retry-After` on a 429 or a 503: seconds or an HTTP date, as `retryAfterMs` on the
 * `ConnectionRequestError` (and in the projection the model sees), never negative, never past the
 * longest delay a timer honours; absent on other statuses.
 */
import { describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import { ConnectionRequestError } from '../../src/connections/index.js';
import { retryAfterMsOf } from '../../src/wire/http/retry-after.js';
import { mcpHandler, reply } from '../fixtures/fault-server.js';
import { mountEcho, useFaultServers } from '../support/fault-suite.js';

const { start } = useFaultServers();

describe('retryAfterMsOf', () => {
  const now = Date.parse('2026-12-03T12:00:00Z');
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Thu, 03 Dec 2026 12:00:30 GMT', 30_000],
    ['Thu, 03 Dec 2026 11:59:00 GMT', 0],
    ['99999999999', 2 ** 31 - 1],
  ])('reads %j as %i ms', (value, ms) => {
    expect(retryAfterMsOf(value, now)).toBe(ms);
  });

  it.each([['soon'], ['-5'], ['1.5'], ['']])('reads %j as nothing', (value) => {
    expect(retryAfterMsOf(value, now)).toBeUndefined();
  });
});

describe('a call answered 429 or 503', () => {
  it.each([429, 503])(
    '%i with Retry-After: 7 carries retryAfterMs 7000, retryable',
    async (status) => {
      const server = await start(
        mcpHandler({ 'tools/call': reply.status(status, 'slow down', { 'retry-after': '7' }) }),
      );
      const echo = await mountEcho(server);
      const result = await runTool(echo, { message: 'hi' }, { source: 'agent' });
      expect(result).toMatchObject({
        ok: false,
        code: 'CONNECTION_REQUEST_FAILED',
        details: { upstreamStatus: status, retryAfterMs: 7000 },
        retryable: true,
      });
      const cause = toolCauseFromResult(result);
      expect(cause).toBeInstanceOf(ConnectionRequestError);
      expect(cause).toMatchObject({ status, retryAfterMs: 7000 });
    },
  );

  it('a 500 with Retry-After carries none', async () => {
    const server = await start(
      mcpHandler({ 'tools/call': reply.status(500, 'broken', { 'retry-after': '7' }) }),
    );
    const echo = await mountEcho(server);
    const cause = toolCauseFromResult(await runTool(echo, { message: 'hi' }, { source: 'agent' }));
    expect(cause).toMatchObject({ status: 500, retryAfterMs: undefined });
  });
});
