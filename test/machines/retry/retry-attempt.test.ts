/**
 * The `attempt` actor of `retry` alone: an attempt stopped before it began never runs, and one
 * that has settled is not told to stop afterwards (its signal stays quiet).
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { attemptActor } from '../../../src/machines/retry/retry.actors.js';

describe('retry attempt actor', () => {
  it('never runs an attempt stopped before it began', async () => {
    let runs = 0;
    const actor = createActor(attemptActor, {
      input: {
        attempt: 1,
        runAttempt: async () => {
          runs += 1;
          return 'value';
        },
      },
    });
    actor.start();
    actor.stop();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(0);
  });

  it('leaves the signal of a settled attempt unaborted when stopped, and aborts a running one', async () => {
    const signals: AbortSignal[] = [];
    const run = (settles: boolean) => {
      const actor = createActor(attemptActor, {
        input: {
          attempt: 1,
          runAttempt: (signal: AbortSignal) => {
            signals.push(signal);
            return settles ? Promise.resolve<unknown>('value') : new Promise<unknown>(() => {});
          },
        },
      });
      actor.start();
      return actor;
    };
    const settled = run(true);
    const running = run(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    settled.stop();
    running.stop();
    expect(signals.map((signal) => signal.aborted)).toEqual([false, true]);
    expect(String((signals[1]?.reason as Error | undefined)?.message)).toBe(
      'retry: the attempt was stopped',
    );
  });
});
