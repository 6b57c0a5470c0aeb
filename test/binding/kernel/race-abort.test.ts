/**
 * `raceAbort`, the one abort race every layer uses: the exact reason on abort, the value or the
 * failure otherwise, and no unhandled rejection from the loser.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { raceAbort } from '../../../src/binding/kernel/race-abort.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

async function outcome(promise: Promise<unknown>): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

describe('raceAbort', () => {
  const reason = new Error('caller stopped');

  it('settles as the promise does while the signal stays quiet', async () => {
    const controller = new AbortController();
    expect(await outcome(raceAbort(Promise.resolve(7), controller.signal))).toEqual({ value: 7 });
    const failure = new Error('socket hang up');
    expect(await outcome(raceAbort(Promise.reject(failure), controller.signal))).toEqual({
      error: failure,
    });
  });

  it('rejects at once with the exact reason when the signal aborts first', async () => {
    const controller = new AbortController();
    const pending = deferred<number>();
    const raced = outcome(raceAbort(pending.promise, controller.signal));
    controller.abort(reason);
    expect((await raced).error).toBe(reason);
    // The loser settles later: its rejection is handled, so nothing is reported as unhandled.
    pending.reject(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('rejects with the reason of a signal aborted before the race, and handles the loser', async () => {
    const controller = new AbortController();
    controller.abort(reason);
    const pending = deferred<number>();
    expect((await outcome(raceAbort(pending.promise, controller.signal))).error).toBe(reason);
    pending.reject(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('removes its abort listener once the promise settles', async () => {
    const controller = new AbortController();
    const raced = raceAbort(Promise.resolve(1), controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await raced;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
