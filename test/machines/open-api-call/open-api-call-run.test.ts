/**
 * Real runs of `openApiCall`, for the outcomes the model walk does not show: the resolved value,
 * the one deadline over credentials and body with the bytes read by then, the caller's abort, a
 * refused token, and the teardown that wipes the token and the principal.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { makeOpenApiCallActors } from '../../../src/machines/open-api-call/open-api-call.actors.js';
import { openApiCallMachine } from '../../../src/machines/open-api-call/open-api-call.machine.js';
import type {
  OpenApiCallContext,
  OpenApiCallInput,
} from '../../../src/machines/open-api-call/open-api-call.types.js';
import { runMachine } from '../../../src/machines/run-machine.js';
import { ConnectionCredentialError, ConnectionTimeoutError } from '../../../src/wire/index.js';
import { answer, deferredSend } from '../../support/fake-wire.js';
import {
  CALL_TIMEOUT_MS,
  MODEL_TOKEN,
  openApiCallModelInput,
} from '../../support/model-open-api-call.js';

/** A token provider that answers when the test says, and the principals it was asked for. */
function deferredProvider() {
  const principals: unknown[] = [];
  let pending: { resolve(token: unknown): void; reject(error: unknown): void } | undefined;
  return {
    principals,
    resolveToken: (principal: unknown) => {
      principals.push(principal);
      return new Promise<string | undefined>((resolve, reject) => {
        pending = { resolve: resolve as (token: unknown) => void, reject };
      });
    },
    resolve: (token: unknown) => pending?.resolve(token),
  };
}

function start(input: OpenApiCallInput = openApiCallModelInput, signal?: AbortSignal) {
  const wire = deferredSend();
  const provider = deferredProvider();
  const machine = openApiCallMachine.provide({
    actors: makeOpenApiCallActors({ resolveToken: provider.resolveToken, send: wire.send }),
  });
  const settled = runMachine(machine, input, signal === undefined ? {} : { signal }).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { wire, provider, settled };
}

describe('openApiCall run', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves with the status and the decoded value, having asked for the run's principal", async () => {
    const { wire, provider, settled } = start();
    await vi.advanceTimersByTimeAsync(0);
    provider.resolve(MODEL_TOKEN);
    await vi.advanceTimersByTimeAsync(0);
    wire.answer(answer(200, 'application/json', '{"id":1,"name":"rex"}'));
    expect(await settled).toEqual({
      value: { ok: true, status: 200, value: { id: 1, name: 'rex' } },
    });
    expect(provider.principals).toEqual([{ user: 'u1' }]);
    expect(wire.requests.map((request) => request.headers)).toEqual([
      { accept: 'application/json', authorization: `Bearer ${MODEL_TOKEN}` },
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('decodes a HEAD answer to null even when the server sends a body', async () => {
    const { wire, provider, settled } = start({
      ...openApiCallModelInput,
      request: { ...openApiCallModelInput.request, method: 'HEAD' },
    });
    await vi.advanceTimersByTimeAsync(0);
    provider.resolve(undefined);
    await vi.advanceTimersByTimeAsync(0);
    wire.answer(answer(200, 'application/json', '{"id":1}'));
    expect(await settled).toEqual({ value: { ok: true, status: 200, value: null } });
    expect(wire.requests.map((request) => [request.method, request.headers])).toEqual([
      ['HEAD', { accept: 'application/json' }],
    ]);
  });

  it('times out once for the whole call (credentials included), reporting the last BYTES_READ total as observedReadBytes', async () => {
    const { wire, provider, settled } = start();
    await vi.advanceTimersByTimeAsync(1_000);
    provider.resolve(MODEL_TOKEN);
    await vi.advanceTimersByTimeAsync(500);
    // The head and two chunks arrive (100, then 150 bytes in all); then the body stalls.
    wire.answer({
      status: 200,
      contentType: 'application/json',
      chunks: ['x'.repeat(100), 'y'.repeat(50)],
      stalls: true,
    });
    await vi.advanceTimersByTimeAsync(CALL_TIMEOUT_MS - 1_500 - 1);
    let done = false;
    void settled.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { error } = (await settled) as { error: ConnectionTimeoutError };
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect({
      timeoutMs: error.timeoutMs,
      observedReadBytes: error.observedReadBytes,
      operation: error.operation,
      phase: error.phase,
    }).toEqual({
      timeoutMs: CALL_TIMEOUT_MS,
      observedReadBytes: 150,
      operation: 'openapi/call',
      phase: 'call',
    });
    expect(Date.now()).toBe(CALL_TIMEOUT_MS);
    expect(wire.requests[0]?.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects with the caller's exact reason when aborted while the credential resolves", async () => {
    const controller = new AbortController();
    const { wire, settled } = start(openApiCallModelInput, controller.signal);
    await vi.advanceTimersByTimeAsync(10);
    const reason = { why: 'stopped' };
    controller.abort(reason);
    const outcome = (await settled) as { error: unknown };
    expect(outcome.error).toBe(reason);
    expect(wire.requests).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses a token with CR/LF before any request, with an error that does not contain it', async () => {
    const { wire, provider, settled } = start();
    await vi.advanceTimersByTimeAsync(0);
    provider.resolve('secret\r\nx-injected: 1');
    const { error } = (await settled) as { error: ConnectionCredentialError };
    expect(ConnectionCredentialError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      'Connection "model" refused its credential: its token contains CR, LF or NUL during openapi/call',
    );
    expect(error.problem).toBe('header-break');
    expect(String(error)).not.toContain('secret');
    expect(wire.requests).toEqual([]);
  });

  it('wipes the token and the principal at teardown, on success and on failure', async () => {
    for (const status of [200, 500]) {
      const wire = deferredSend();
      const provider = deferredProvider();
      const machine = openApiCallMachine.provide({
        actors: makeOpenApiCallActors({ resolveToken: provider.resolveToken, send: wire.send }),
      });
      const actor = createActor(machine, { input: openApiCallModelInput });
      actor.subscribe({ error: () => undefined });
      actor.start();
      await vi.advanceTimersByTimeAsync(0);
      provider.resolve(MODEL_TOKEN);
      await vi.advanceTimersByTimeAsync(0);
      const context = actor.getSnapshot().context as OpenApiCallContext;
      expect(context.token?.wiped).toBe(false);
      wire.answer(answer(status, 'application/json', '{}'));
      await vi.advanceTimersByTimeAsync(0);
      const snapshot = actor.getSnapshot();
      expect(snapshot.status).toBe('done');
      expect((snapshot.output as { ok: boolean }).ok).toBe(status === 200);
      const final = snapshot.context as OpenApiCallContext;
      expect({ token: final.token?.wiped, principal: final.principal?.wiped }).toEqual({
        token: true,
        principal: true,
      });
      actor.stop();
    }
  });
});
