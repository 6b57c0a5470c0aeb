import { createInspector } from '@statelyai/inspect';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { projectToolError } from '../../../src/binding/kernel/app-error.js';
import type { TransitionRecord } from '../../../src/machines/observe.js';
import { runMachine } from '../../../src/machines/run-machine.js';
import { makeWaitActors, type WaitPollContext } from '../../../src/machines/wait/wait.actors.js';
import { waitMachine } from '../../../src/machines/wait/wait.machine.js';
import { WaitTimeoutError } from '../../../src/machines/wait/wait.timeout-error.js';

/** A wait whose polls return the given states in order (the last repeats). */
function scriptedWait(states: readonly string[]) {
  const polls: WaitPollContext[] = [];
  const machine = waitMachine.provide({
    actors: makeWaitActors({
      poll: async (context) => {
        polls.push(context);
        return { status: states[Math.min(polls.length - 1, states.length - 1)] };
      },
      isDone: (state) => (state as { status: string }).status === 'ready',
    }),
  });
  return { machine, polls };
}

/** A wait whose polls never settle, exposing each poll's signal. */
function hangingWait() {
  const polls: WaitPollContext[] = [];
  const machine = waitMachine.provide({
    actors: makeWaitActors({
      poll: (context) => {
        polls.push(context);
        return new Promise(() => {});
      },
      isDone: () => false,
    }),
  });
  return { machine, polls };
}

describe('wait machine', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls first, then sleeps on the backoff schedule, until done', async () => {
    const { machine, polls } = scriptedWait(['queued', 'running', 'ready']);
    const result = runMachine(machine, { backoffSeconds: [2, 3] });
    await vi.advanceTimersByTimeAsync(0);
    expect(polls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(polls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(result).resolves.toEqual({
      ok: true,
      snapshot: { status: 'ready' },
      timedOut: false,
      polls: 3,
    });
    expect(polls.map((poll) => poll.attempt)).toEqual([0, 1, 2]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('returns the last state with timedOut when the deadline passes after a state was seen', async () => {
    const { machine, polls } = scriptedWait(['running']);
    const result = runMachine(machine, { timeoutMs: 10_000, backoffSeconds: [4] });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(result).resolves.toEqual({
      ok: true,
      snapshot: { status: 'running' },
      timedOut: true,
      polls: 3,
    });
    expect(polls).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails with WaitTimeoutError (408) when the deadline passes before the first state', async () => {
    const { machine, polls } = hangingWait();
    const result = runMachine(machine, { timeoutMs: 5_000 });
    const settled = result.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(polls[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ code: 'WAIT_TIMEOUT', timeoutMs: 5_000 });
    expect(polls[0]?.signal.aborted).toBe(true);
  });

  it('interrupts a sleep on cancellation, keeps the reason, and polls no more', async () => {
    const { machine, polls } = scriptedWait(['running']);
    const controller = new AbortController();
    const reason = { why: 'user pressed stop' };
    const settled = runMachine(machine, {}, { signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(polls).toHaveLength(1);
    controller.abort(reason);
    expect(await settled).toBe(reason);
    await vi.advanceTimersByTimeAsync(700_000);
    expect(polls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts the poll in flight on cancellation and rejects with the exact reason', async () => {
    const { machine, polls } = hangingWait();
    const controller = new AbortController();
    const reason = new Error('caller went away');
    const settled = runMachine(machine, {}, { signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(polls[0]?.signal.aborted).toBe(false);
    controller.abort(reason);
    expect(polls[0]?.signal.aborted).toBe(true);
    expect(await settled).toBe(reason);
    expect(polls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails with the poll error when a poll throws', async () => {
    const failure = new Error('status endpoint down');
    const machine = waitMachine.provide({
      actors: makeWaitActors({
        poll: async () => {
          throw failure;
        },
        isDone: () => false,
      }),
    });
    await expect(runMachine(machine, {})).rejects.toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports every transition of a real wait, in order, to observe', async () => {
    const { machine } = scriptedWait(['running', 'ready']);
    const records: TransitionRecord[] = [];
    const result = runMachine(
      machine,
      { backoffSeconds: [2] },
      {
        observe: (record) => records.push(record),
        labels: { connection: 'jobs', phase: 'call', operation: 'wait' },
      },
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await result;
    const common = {
      machine: 'wait',
      connection: 'jobs',
      phase: 'call',
      at: expect.any(Number),
      elapsedMs: expect.any(Number),
    };
    expect(records).toEqual([
      { ...common, operation: 'poll', from: '', to: 'polling', event: 'xstate.init' },
      {
        ...common,
        operation: 'sleep',
        from: 'polling',
        to: 'sleeping',
        event: 'xstate.done.actor.poll',
      },
      {
        ...common,
        operation: 'poll',
        from: 'sleeping',
        to: 'polling',
        event: 'xstate.after.BACKOFF_SLEEP.wait.sleeping',
      },
      {
        ...common,
        operation: 'wait',
        from: 'polling',
        to: 'closed',
        event: 'xstate.done.actor.poll',
      },
    ]);
  });

  it('contains a throwing observer: the outcome is unchanged', async () => {
    const { machine } = scriptedWait(['ready']);
    let calls = 0;
    const result = await runMachine(
      machine,
      {},
      {
        observe: () => {
          calls += 1;
          throw new Error('observer bug');
        },
      },
    );
    expect(result).toMatchObject({ ok: true, snapshot: { status: 'ready' } });
    expect(calls).toBe(2);
  });
});

describe('wait machine under an offline @statelyai/inspect inspector', () => {
  it('delivers actor, event and snapshot inspection events', async () => {
    const received: { type: string }[] = [];
    const inspector = createInspector({ send: (event) => received.push(event) });
    const { machine } = scriptedWait(['ready']);
    await runMachine(machine, {}, { inspect: inspector.inspect });
    // createInspector delivers through setTimeout(0) in Node.
    await vi.waitFor(
      () => expect(received.some((event) => event.type === '@xstate.snapshot')).toBe(true),
      {
        timeout: 2_000,
      },
    );
    inspector.stop();
    const types = new Set(received.map((event) => event.type));
    expect([...types].sort()).toEqual(['@xstate.actor', '@xstate.event', '@xstate.snapshot']);
  });
});

describe('WaitTimeoutError', () => {
  it.each([
    [
      'the default message',
      new WaitTimeoutError(5_000),
      'Wait timed out before the first snapshot',
    ],
    [
      'a given message',
      new WaitTimeoutError(5_000, { message: 'job is running' }),
      'job is running',
    ],
  ])('projects %s onto WAIT_TIMEOUT (408, not retryable)', (_label, error, message) => {
    expect(error).toMatchObject({ code: 'WAIT_TIMEOUT', status: 408, timeoutMs: 5_000, message });
    expect(projectToolError(error)).toMatchObject({
      code: 'WAIT_TIMEOUT',
      status: 408,
      retryable: false,
      message,
    });
  });
});
