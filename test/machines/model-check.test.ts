import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyStateMachine, createMachine } from 'xstate';
import { makeWaitActors } from '../../src/machines/wait/wait.actors.js';
import { waitMachine } from '../../src/machines/wait/wait.machine.js';
import {
  checkModel,
  findExitsWithoutCleanup,
  findFinalEdgesWithoutTeardown,
  findTrapStates,
  findUnresolvedDelays,
  findWaitingStatesWithoutDeadlineOrCancel,
} from '../support/model-check.js';
import { buildModelGraph } from '../support/model-graph.js';
import { waitModelOptions } from '../support/model-wait.js';
import { walkEveryEdge } from '../support/model-walk.js';

type StatesConfig = Record<string, Record<string, unknown>>;

/**
 * A copy of `wait` with its states patched (and its root's keys replaced by `root`): the same
 * implementations, one seeded defect.
 */
function seedDefect(
  patch: (states: StatesConfig) => StatesConfig,
  root: Record<string, unknown> = {},
): AnyStateMachine {
  const config = waitMachine.config as unknown as { states: StatesConfig };
  return createMachine(
    { ...waitMachine.config, ...root, states: patch({ ...config.states }) } as never,
    waitMachine.implementations as never,
  ) as unknown as AnyStateMachine;
}

/** A state's own `CANCEL`, as the root has it, into `target`. */
function cancelInto(target: string) {
  return {
    CANCEL: {
      target,
      actions: {
        type: 'failCancelled',
        params: ({ event }: { readonly event: { readonly reason?: unknown } }) => ({
          reason: event.reason,
        }),
      },
    },
  };
}

describe('model checks catch seeded defects', () => {
  it('finds no offender on the unmodified wait machine', () => {
    const graph = buildModelGraph(waitMachine, waitModelOptions);
    expect(findTrapStates(graph)).toEqual([]);
    expect(findFinalEdgesWithoutTeardown(waitMachine, graph)).toEqual([]);
    expect(findExitsWithoutCleanup(waitMachine, graph)).toEqual([]);
    expect(findWaitingStatesWithoutDeadlineOrCancel(waitMachine)).toEqual([]);
    expect(findUnresolvedDelays(waitMachine, graph)).toEqual([]);
  });

  it('reports an edge into the final state that bypasses teardown', () => {
    const defective = seedDefect((states) => ({
      ...states,
      polling: {
        ...states.polling,
        on: cancelInto('bypass'),
      },
      bypass: { type: 'final' },
    }));
    const offenders = checkModel(defective, waitModelOptions).finalEdgesWithoutTeardown;
    expect(offenders).toHaveLength(2);
    expect(offenders.every((line) => line.includes('CANCEL') && line.endsWith('no teardown'))).toBe(
      true,
    );
  });

  it('reports a misspelled delay name, which XState would fire at once', () => {
    const defective = seedDefect((states) => ({
      ...states,
      sleeping: { ...states.sleeping, after: { BACKOFF_SLEPE: 'polling' } },
    }));
    expect(findUnresolvedDelays(defective)).toEqual([
      'wait.sleeping: after "BACKOFF_SLEPE" -> undefined',
    ]);
  });

  it('reports a waiting state without a deadline unless it is allow-listed', () => {
    const defective = seedDefect((states) => ({
      ...states,
      sleeping: { on: { WAKE: 'polling', CANCEL: { target: 'closed' } } },
    }));
    expect(findWaitingStatesWithoutDeadlineOrCancel(defective)).toEqual([
      'wait.sleeping: waits without a deadline',
    ]);
    expect(
      findWaitingStatesWithoutDeadlineOrCancel(defective, { allowWithoutDeadline: ['sleeping'] }),
    ).toEqual([]);
  });

  it('reports a waiting state without a CANCEL transition', () => {
    // The root's CANCEL moves to `polling` alone, so `sleeping` has none of its own or inherited.
    const defective = seedDefect(
      (states) => ({ ...states, polling: { ...states.polling, on: cancelInto('closed') } }),
      { on: {} },
    );
    expect(findWaitingStatesWithoutDeadlineOrCancel(defective)).toEqual([
      'wait.sleeping: no CANCEL transition',
    ]);
  });

  it('reports trap states from which no final state is reachable', () => {
    const defective = seedDefect((states) => ({
      ...states,
      sleeping: {
        after: { BACKOFF_SLEEP: { target: 'sleeping', reenter: true } },
        on: { CANCEL: { target: 'sleeping', reenter: true } },
      },
    }));
    const traps = checkModel(defective, waitModelOptions).trapStates;
    expect(traps.length).toBeGreaterThan(0);
    expect(traps.every((vertex) => vertex.includes('"sleeping"'))).toBe(true);
  });
});

describe('model walker catches a seeded defect', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails the paths through a state whose delay is misspelled', async () => {
    let settle: ((value: unknown) => void) | undefined;
    const defective = seedDefect((states) => ({
      ...states,
      sleeping: {
        ...states.sleeping,
        after: { ...(states.sleeping as { after: object }).after, TYPO_DEADLINE: 'closed' },
      },
    })).provide({
      actors: makeWaitActors({
        poll: () =>
          new Promise((resolve) => {
            settle = resolve;
          }),
        isDone: (snapshot) => (snapshot as { status: string }).status === 'ready',
      }),
    });
    const report = await walkEveryEdge(defective, {
      ...waitModelOptions,
      beforePath: () => vi.setSystemTime(0),
      executors: {
        'xstate.done.actor.poll': ({ event }) => {
          settle?.((event as unknown as { output: { snapshot: unknown } }).output.snapshot);
        },
        'xstate.error.actor.poll': () => {},
      },
    });
    expect(report.walked).toBeLessThan(report.total);
    expect(report.failures.some((failure) => failure.includes('the actor reached'))).toBe(true);
  });
});
