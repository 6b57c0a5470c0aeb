/**
 * Real runs of `specLoad` through `runMachine`, for the outcomes the model walk does not show:
 * the resolved value, the deadline's error and timing, the caller's abort, and the fence.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runMachine } from '../../../src/machines/run-machine.js';
import { makeSpecLoadActors } from '../../../src/machines/spec-load/spec-load.actors.js';
import { specLoadMachine } from '../../../src/machines/spec-load/spec-load.machine.js';
import {
  ConnectionProtocolError,
  ConnectionTimeoutError,
  ConnectionUrlError,
} from '../../../src/wire/index.js';
import { answer, deferredSend } from '../../support/fake-wire.js';
import { SPEC_TIMEOUT_MS, specLoadModelInput } from '../../support/model-spec-load.js';

describe('specLoad run', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(input = specLoadModelInput, signal?: AbortSignal) {
    const wire = deferredSend();
    const machine = specLoadMachine.provide({ actors: makeSpecLoadActors({ send: wire.send }) });
    const run = runMachine(machine, input, signal === undefined ? {} : { signal });
    // Observe the settlement at once, so a rejection is never reported as unhandled.
    const settled = run.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { wire, settled };
  }

  it('resolves with the parsed document', async () => {
    const { wire, settled } = start();
    await vi.advanceTimersByTimeAsync(0);
    wire.answer(answer(200, 'application/json', '{"openapi":"3.0.3","paths":{"/pets":{}}}'));
    expect(await settled).toEqual({
      value: { ok: true, document: { openapi: '3.0.3', paths: { '/pets': {} } } },
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses a JSON body its server calls YAML, as YAML, by the content type it read', async () => {
    const { wire, settled } = start();
    await vi.advanceTimersByTimeAsync(0);
    wire.answer(answer(200, 'application/yaml', '{"openapi":"3.0.3","paths":{}}'));
    const { error } = (await settled) as { error: ConnectionProtocolError };
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect(error.message).toBe(
      'Connection "model" served an OpenAPI document in YAML; JSON is required',
    );
  });

  it('rejects with a ConnectionTimeoutError carrying timeoutMs, operation openapi/spec, at the deadline and not before', async () => {
    const { wire, settled } = start();
    let done = false;
    void settled.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(SPEC_TIMEOUT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { error } = (await settled) as { error: ConnectionTimeoutError };
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect({
      timeoutMs: error.timeoutMs,
      operation: error.operation,
      phase: error.phase,
      connectionName: error.connectionName,
      observedReadBytes: error.observedReadBytes,
      message: error.message,
    }).toEqual({
      timeoutMs: SPEC_TIMEOUT_MS,
      operation: 'openapi/spec',
      phase: 'discovery',
      connectionName: 'model',
      observedReadBytes: 0,
      message: `Connection "model" timed out after ${SPEC_TIMEOUT_MS} ms`,
    });
    // The GET in flight was aborted, and nothing outlives the run.
    expect(wire.requests).toHaveLength(1);
    expect(wire.requests[0]?.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects with the caller's exact abort reason and aborts the GET", async () => {
    const controller = new AbortController();
    const { wire, settled } = start(specLoadModelInput, controller.signal);
    await vi.advanceTimersByTimeAsync(100);
    const reason = new Error('caller went away');
    controller.abort(reason);
    expect(await settled).toEqual({ error: reason });
    expect(((await settled) as { error: unknown }).error).toBe(reason);
    expect(wire.requests[0]?.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses a document URL outside the fence before any request', async () => {
    const { wire, settled } = start({
      ...specLoadModelInput,
      url: 'http://127.0.0.2:7100/openapi.json',
    });
    const { error } = (await settled) as { error: ConnectionUrlError };
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect(error.operation).toBe('openapi/spec');
    expect(wire.requests).toEqual([]);
  });
});
