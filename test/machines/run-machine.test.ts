import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { runMachine } from '../../src/machines/run-machine.js';
import { makeWaitActors } from '../../src/machines/wait/wait.actors.js';
import { waitMachine } from '../../src/machines/wait/wait.machine.js';

const timeoutsAlive = () =>
  process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

function countingWait(outcome: 'ready' | 'throw' | 'hang') {
  let polls = 0;
  const machine = waitMachine.provide({
    actors: makeWaitActors({
      poll: () => {
        polls += 1;
        if (outcome === 'throw') return Promise.reject(new Error('poll failed'));
        if (outcome === 'hang') return new Promise(() => {});
        return Promise.resolve('ready');
      },
      isDone: (state) => state === 'ready',
    }),
  });
  return { machine, polls: () => polls };
}

describe('runMachine', () => {
  it('starts nothing when the signal is already aborted and rejects with its reason', async () => {
    const { machine, polls } = countingWait('ready');
    const reason = Symbol('already cancelled');
    let inspected = 0;
    await expect(
      runMachine(
        machine,
        {},
        { signal: AbortSignal.abort(reason), inspect: () => (inspected += 1) },
      ),
    ).rejects.toBe(reason);
    expect({ polls: polls(), inspected }).toEqual({ polls: 0, inspected: 0 });
  });

  it('leaves no timer behind after success, failure and cancellation', async () => {
    const before = timeoutsAlive();
    await expect(runMachine(countingWait('ready').machine, {})).resolves.toMatchObject({
      ok: true,
    });
    expect(timeoutsAlive()).toBe(before);
    await expect(runMachine(countingWait('throw').machine, {})).rejects.toThrow('poll failed');
    expect(timeoutsAlive()).toBe(before);
    const controller = new AbortController();
    const cancelled = runMachine(countingWait('hang').machine, {}, { signal: controller.signal });
    expect(timeoutsAlive()).toBe(before + 1);
    controller.abort('stop');
    await expect(cancelled).rejects.toBe('stop');
    expect(timeoutsAlive()).toBe(before);
  });

  it('removes its abort listener once the run settles', async () => {
    const controller = new AbortController();
    const { machine } = countingWait('ready');
    const run = runMachine(machine, {}, { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await run;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the actor error when an action throws, without an uncaught exception', async () => {
    const bug = new Error('action bug');
    const broken = setup({
      actions: {
        explode: () => {
          throw bug;
        },
      },
      actors: { step: fromPromise(async () => 1) },
    }).createMachine({
      id: 'broken',
      initial: 'working',
      states: {
        working: {
          invoke: { id: 'step', src: 'step', onDone: { target: 'closed', actions: 'explode' } },
        },
        closed: { type: 'final' },
      },
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(runMachine(broken, undefined)).rejects.toBe(bug);
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });

  it('rejects with a TypeError when a machine ends without a result union', async () => {
    const plain = setup({}).createMachine({
      id: 'plain',
      initial: 'closed',
      states: { closed: { type: 'final' } },
    });
    await expect(runMachine(plain, undefined)).rejects.toThrow(TypeError);
  });
});
