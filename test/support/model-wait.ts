/** The abstracted model of the `wait` machine used by its model checks and walks. */
import { vi } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { makeWaitActors } from '../../src/machines/wait/wait.actors.js';
import { waitMachine } from '../../src/machines/wait/wait.machine.js';
import type { WaitContext, WaitPollOutput } from '../../src/machines/wait/wait.types.js';
import type { ModelOptions } from './model-graph.js';
import type { WalkHarness } from './model-walk.js';

/** The overall deadline of the modelled wait. */
export const TIMEOUT_MS = 600_000;
const input = { startedAt: 0, timeoutMs: TIMEOUT_MS, backoffSeconds: [2] };

const pollDone = (
  status: string,
  finishedAt: number,
): { type: string; output: WaitPollOutput } => ({
  type: 'xstate.done.actor.poll',
  output: { snapshot: { status }, done: status === 'ready', finishedAt },
});

/** Vertex key: the state, whether a state was seen, and whether the current sleep is the last. */
export function serializeWaitState(snapshot: AnyMachineSnapshot): string {
  if (snapshot.status === 'done') {
    const output = snapshot.output as { ok: boolean; timedOut?: boolean };
    return JSON.stringify({ value: snapshot.value, ok: output.ok, timedOut: output.timedOut });
  }
  const context = snapshot.context as WaitContext;
  return JSON.stringify({
    value: snapshot.value,
    hasState: context.polls > 0,
    lastSleep: snapshot.value === 'sleeping' ? context.sleepUntil >= context.deadlineAt : undefined,
  });
}

/** Model options shared by the checks and the walk. */
export const waitModelOptions: ModelOptions = {
  input,
  serializeState: serializeWaitState,
  eventCases: {
    'xstate.done.actor.poll': [
      pollDone('ready', 1_000),
      pollDone('pending', 1_000),
      pollDone('pending', TIMEOUT_MS - 1_000),
    ],
    'xstate.error.actor.poll': [
      { type: 'xstate.error.actor.poll', error: new Error('poll failed') },
    ],
    CANCEL: [{ type: 'CANCEL', reason: 'walk cancelled' }],
  },
};

/**
 * The wait machine (or a defective copy) with a deferred `poll`, and the executors that settle
 * it: a case's `finishedAt` says how late in the wait its poll returns.
 */
export function waitWalkHarness(definition: AnyStateMachine = waitMachine): WalkHarness {
  let settle: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
  return {
    machine: definition.provide({
      actors: makeWaitActors({
        poll: () =>
          new Promise((resolve, reject) => {
            settle = { resolve, reject };
          }),
        isDone: (snapshot) => (snapshot as { status: string }).status === 'ready',
      }),
    } as never),
    options: {
      ...waitModelOptions,
      beforePath: () => {
        settle = undefined;
        vi.setSystemTime(0);
      },
      executors: {
        'xstate.done.actor.poll': async ({ event }) => {
          const output = (event as unknown as { output: WaitPollOutput }).output;
          if (output.finishedAt > Date.now()) {
            await vi.advanceTimersByTimeAsync(output.finishedAt - Date.now());
          }
          settle?.resolve(output.snapshot);
        },
        'xstate.error.actor.poll': ({ event }) => {
          settle?.reject((event as unknown as { error: unknown }).error);
        },
      },
    },
  };
}
