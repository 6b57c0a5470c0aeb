import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeWaitActors } from '../../../src/machines/wait/wait.actors.js';
import { waitMachine } from '../../../src/machines/wait/wait.machine.js';
import type { WaitPollOutput } from '../../../src/machines/wait/wait.types.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { waitModelOptions } from '../../support/model-wait.js';
import { walkEveryEdge } from '../../support/model-walk.js';

describe('wait machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(waitMachine, waitModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 7, edges: 16 });
  });

  it('drives the real actor along every edge of the model', async () => {
    let settle: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
    const machine = waitMachine.provide({
      actors: makeWaitActors({
        poll: () =>
          new Promise((resolve, reject) => {
            settle = { resolve, reject };
          }),
        isDone: (snapshot) => (snapshot as { status: string }).status === 'ready',
      }),
    });
    const report = await walkEveryEdge(machine, {
      ...waitModelOptions,
      beforePath: () => {
        settle = undefined;
        vi.setSystemTime(0);
      },
      executors: {
        'xstate.done.actor.poll': async ({ event }) => {
          const output = (event as unknown as { output: WaitPollOutput }).output;
          // A case's finishedAt says how late in the wait the poll returns.
          if (output.finishedAt > Date.now()) {
            await vi.advanceTimersByTimeAsync(output.finishedAt - Date.now());
          }
          settle?.resolve(output.snapshot);
        },
        'xstate.error.actor.poll': ({ event }) => {
          settle?.reject((event as unknown as { error: unknown }).error);
        },
      },
    });
    console.info(`wait: walked ${report.walked}/${report.total} edges in ${report.paths} paths`);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(16);
  });
});
