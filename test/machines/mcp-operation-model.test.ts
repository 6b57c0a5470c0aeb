/**
 * Model checks of `mcpOperation` (DESIGN §3.6): invariants 1–5 over the explored model, and the
 * real actor walked along every edge with deferred actor results and fake timers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnyEventObject,
  type AnyStateMachine,
  fromCallback,
  fromPromise,
  transition,
} from 'xstate';
import {
  mcpOperationMachine,
  mcpOperationSetup,
} from '../../src/machines/mcp-operation.machine.js';
import type { McpOperationContext } from '../../src/machines/mcp-operation.types.js';
import { isInsideFence } from '../../src/wire/index.js';
import { checkModel, modelCheckProblems } from '../support/model-check.js';
import { buildModelGraph, type ModelOptions } from '../support/model-graph.js';
import { mcpListModelOptions, mcpModelOptions } from '../support/model-mcp-operation.js';
import { walkEveryEdge } from '../support/model-walk.js';

/** The call, and the discovery that follows `tools/list` pages (at most two in the model). */
const MODELS: readonly { readonly name: string; readonly options: ModelOptions }[] = [
  { name: 'tools/call', options: mcpModelOptions },
  { name: 'tools/list', options: mcpListModelOptions },
];

const LEGACY_STATES = [
  'initializing',
  'initializeCheck',
  'notifying',
  'requesting',
  'responseCheck',
];

function stateOf(snapshot: { value: unknown }): string {
  return JSON.stringify(snapshot.value);
}

/** Every model edge into the legacy wire from outside it: where the fallback can happen. */
function fallbackEdges(machine: AnyStateMachine, options: ModelOptions) {
  return buildModelGraph(machine, options)
    .edges.filter(
      (edge) =>
        stateOf(edge.targetSnapshot).includes('"legacy"') &&
        !stateOf(edge.sourceSnapshot).includes('"legacy"'),
    )
    .map((edge) => ({
      from: edge.sourceSnapshot.value,
      event: edge.event.type,
      status: (edge.event as { output?: { status?: number } }).output?.status,
    }));
}

const ONLY_FIRST_INITIALIZE_ON_400_404_405 = [400, 404, 405].map((status) => ({
  from: { streamable: 'initializing' },
  event: 'xstate.done.actor.postInitialize',
  status,
}));

/** Model states that post to the legacy endpoint although it is outside the fence. */
function postsOutsideFence(machine: AnyStateMachine, options: ModelOptions) {
  return buildModelGraph(machine, options)
    .edges.map((edge) => edge.targetSnapshot)
    .filter((snapshot) => LEGACY_STATES.some((state) => snapshot.matches({ legacy: state })))
    .filter((snapshot) => {
      const { endpoint, fence } = snapshot.context as McpOperationContext;
      return endpoint === undefined || !isInsideFence(new URL(endpoint), fence);
    });
}

describe.each(MODELS)('mcpOperation model of $name', ({ name, options }) => {
  it('satisfies invariants 1–4: no trap state, teardown into final, cleanup on exit, deadlines and CANCEL, delays resolve', () => {
    const report = checkModel(mcpOperationMachine, options);
    expect(modelCheckProblems(report)).toEqual([]);
    console.info(`mcpOperation (${name}): ${report.states} states, ${report.edges} edges checked`);
    expect(report.states).toBeGreaterThan(20);
  });

  it('has fallback edges only from the first initialize and only for 400, 404 and 405', () => {
    expect(fallbackEdges(mcpOperationMachine, options)).toEqual(
      ONLY_FIRST_INITIALIZE_ON_400_404_405,
    );
  });

  it('never falls back from any other state or status (every status 100–599 on every exchange)', () => {
    const graph = buildModelGraph(mcpOperationMachine, options);
    const offenders: string[] = [];
    for (const snapshot of graph.states.values()) {
      if (snapshot.status !== 'active' || stateOf(snapshot).includes('"legacy"')) continue;
      for (const id of ['postInitialize', 'postInitialized', 'postRequest', 'resumeRequest']) {
        for (let status = 100; status < 600; status += 1) {
          const event = {
            type: `xstate.done.actor.${id}`,
            output: { kind: 'http-error', status, body: '' },
          } as never;
          if (!snapshot.can(event)) continue;
          const [next] = transition(mcpOperationMachine, snapshot, event);
          const fellBack = stateOf(next).includes('"legacy"');
          const allowed = id === 'postInitialize' && [400, 404, 405].includes(status) && fellBack;
          if (fellBack && !allowed) offenders.push(`${stateOf(snapshot)} ${id} ${status}`);
          if (!fellBack && id === 'postInitialize' && [400, 404, 405].includes(status)) {
            offenders.push(`${stateOf(snapshot)} ${id} ${status} did not fall back`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('never reaches a state that posts to the legacy endpoint unless the endpoint is inside the fence', () => {
    const graph = buildModelGraph(mcpOperationMachine, options);
    const posting = graph.edges.filter((edge) =>
      LEGACY_STATES.some((state) => edge.targetSnapshot.matches({ legacy: state })),
    );
    expect(posting.length).toBeGreaterThan(0);
    expect(postsOutsideFence(mcpOperationMachine, options)).toEqual([]);
  });
});

describe.each(MODELS)('mcpOperation ($name) walked on the real actor', ({ name, options }) => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes every edge of the model as predicted', async () => {
    const pending = new Map<
      string,
      { resolve(value: unknown): void; reject(error: unknown): void }
    >();
    const deferred = fromPromise<unknown, unknown>(
      ({ self }) =>
        new Promise((resolve, reject) => {
          pending.set(self.id, { resolve, reject });
        }),
    );
    const machine = mcpOperationMachine.provide({
      actors: {
        resolveCredentials: deferred as never,
        exchange: deferred as never,
        deleteSession: deferred as never,
        // Stream events are sent to the machine by the walk itself.
        legacyStream: fromCallback(() => () => {}) as never,
      },
    });
    const settle =
      (kind: 'done' | 'error') =>
      ({ event }: { event: AnyEventObject }) => {
        const id = event.type.replace(`xstate.${kind}.actor.`, '');
        const entry = pending.get(id);
        if (entry === undefined) throw new Error(`no pending actor ${id}`);
        if (kind === 'done') entry.resolve((event as { output?: unknown }).output);
        else entry.reject((event as { error?: unknown }).error);
      };
    const executors: Record<string, (step: { event: AnyEventObject }) => void> = {};
    for (const type of Object.keys(options.eventCases ?? {})) {
      if (type.startsWith('xstate.done.actor.')) executors[type] = settle('done');
      if (type.startsWith('xstate.error.actor.')) executors[type] = settle('error');
    }
    const report = await walkEveryEdge(machine, {
      ...options,
      beforePath: () => {
        pending.clear();
        vi.setSystemTime(0);
      },
      executors,
    });
    console.info(
      `mcpOperation (${name}): walked ${report.walked}/${report.total} edges in ${report.paths} paths`,
    );
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
  });
});

describe('the checks catch defects seeded into a copy of mcpOperation', () => {
  it('finds the edges into the final state once closed no longer runs teardown', () => {
    const config = mcpOperationMachine.config;
    const withoutTeardown = mcpOperationSetup.createMachine({
      ...config,
      states: { ...config.states, closed: { type: 'final' } },
    } as never) as unknown as AnyStateMachine;
    const report = checkModel(withoutTeardown, mcpModelOptions);
    expect(report.finalEdgesWithoutTeardown.length).toBe(report.edges - countNonFinalEdges());
    expect(report.finalEdgesWithoutTeardown.length).toBeGreaterThan(50);
  });

  it('sees a fallback on 401 (the mastra and LangChain bug) as an extra fallback edge', () => {
    const fallsBackOn401 = mcpOperationMachine.provide({
      guards: {
        isUnauthorized: () => false,
        isFallbackStatus: ({ event }) =>
          [400, 401, 404, 405].includes(
            (event as { output?: { status?: number } }).output?.status ?? 0,
          ),
      },
    });
    expect(fallbackEdges(fallsBackOn401, mcpModelOptions)).not.toEqual(
      ONLY_FIRST_INITIALIZE_ON_400_404_405,
    );
    expect(fallbackEdges(fallsBackOn401, mcpModelOptions).map((edge) => edge.status)).toEqual([
      400, 401, 404, 405,
    ]);
  });

  it('sees posts to an endpoint outside the fence once the fence guard is bypassed', () => {
    const unfenced = mcpOperationMachine.provide({ guards: { isFencedEndpoint: () => true } });
    expect(postsOutsideFence(unfenced, mcpModelOptions).length).toBeGreaterThan(0);
  });
});

/** Edges of the call model that do not enter the final state. */
function countNonFinalEdges(): number {
  return buildModelGraph(mcpOperationMachine, mcpModelOptions).edges.filter(
    (edge) => edge.targetSnapshot.status !== 'done',
  ).length;
}
