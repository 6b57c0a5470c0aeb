/**
 * The overall deadline of a wait that already saw a state and is polling again (`polling`'s
 * deadline row guarded by `hasState`): the caller gets the last state with `timedOut: true`, not
 * the timeout error of a wait that saw nothing. Through the public `runWaitOperation` and
 * `defineWaitTool`, with fake timers: a first poll answers at once, the sleep ends at 2 s, the
 * second poll never answers, and the 10 s deadline fires during it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runTool, toolCauseFromResult } from '../../../src/binding/index.js';
import { WaitTimeoutError } from '../../../src/machines/wait/wait.timeout-error.js';
import { defineWaitTool } from '../../../src/operations/define-wait-tool.js';
import { runWaitOperation } from '../../../src/operations/wait-operation.js';

const JobState = z.object({ jobId: z.string(), status: z.enum(['running', 'ready']) });
type JobState = z.infer<typeof JobState>;

/** Polls that answer `running` on the first call and never answer after; their signals. */
function answersOnceThenHangs() {
  const signals: AbortSignal[] = [];
  const poll = (signal: AbortSignal): JobState | Promise<JobState> => {
    signals.push(signal);
    return signals.length === 1 ? { jobId: 'j-1', status: 'running' } : new Promise(() => {});
  };
  return { signals, poll };
}

/** Settles `promise` into a value or an error, so fake time can run before it is awaited. */
function settle<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

describe('the wait deadline after a state was seen', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runWaitOperation resolves with the last state and timedOut when the deadline fires during a later poll', async () => {
    const { signals, poll } = answersOnceThenHangs();
    const outcome = settle(
      runWaitOperation<JobState>({
        poll: ({ signal }) => poll(signal),
        done: (state) => state.status === 'ready',
        timeoutSeconds: 10,
        backoffSeconds: [2],
      }),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    expect(signals).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(7_999);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toEqual({
      value: {
        state: { jobId: 'j-1', status: 'running' },
        timedOut: true,
        polls: 1,
        timeoutMs: 10_000,
      },
    });
    // The poll in flight is interrupted, and nothing is left scheduled.
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runWaitOperation rejects with WaitTimeoutError only when no state was ever seen', async () => {
    const signals: AbortSignal[] = [];
    const outcome = settle(
      runWaitOperation<JobState>({
        poll: ({ signal }) => {
          signals.push(signal);
          return new Promise<JobState>(() => {});
        },
        done: () => true,
        timeoutSeconds: 10,
      }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    const result = await outcome;
    expect('error' in result && result.error).toBeInstanceOf(WaitTimeoutError);
    expect(result).toMatchObject({
      error: {
        code: 'WAIT_TIMEOUT',
        timeoutMs: 10_000,
        message: 'Wait timed out before the first snapshot',
      },
    });
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it('a defineWaitTool tool answers WAIT_TIMEOUT rendered from the last state it saw', async () => {
    const { signals, poll } = answersOnceThenHangs();
    const definition = defineWaitTool({
      description: 'Waits for a job to finish',
      identity: { serviceName: 'jobs', action: 'waitForJob' },
      input: z.object({ jobId: z.string() }),
      state: JobState,
      poll: (_input, ctx) => poll(ctx.signal),
      done: (state) => state.status === 'ready',
      render: (state, timedOut) => ({
        text: `${state.jobId} is ${state.status}${timedOut ? ' (gave up)' : ''}`,
      }),
      defaultTimeout: 10,
      backoff: [2],
    });
    const outcome = settle(runTool(definition, { jobId: 'j-1' }, { source: 'internal' }));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(1);
    const result = await outcome;
    expect(result).toMatchObject({ value: { ok: false, code: 'WAIT_TIMEOUT' } });
    const cause = 'value' in result ? toolCauseFromResult(result.value) : undefined;
    expect(cause).toBeInstanceOf(WaitTimeoutError);
    expect(cause).toMatchObject({ timeoutMs: 10_000, message: 'j-1 is running (gave up)' });
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true]);
  });
});
