/**
 * Model checks of `mcpOperation` (docs/architecture.md, "Invariants"): invariants 1–5 over the
 * explored model and every final state carrying an outcome. Model sizes are pinned, so a model
 * that silently shrank (or a chart that grew) fails here first. The real actor is walked along
 * every edge of each model in `mcp-operation-edges-model.test.ts`, against the pinned edge set.
 */
import { describe, expect, it } from 'vitest';
import { type AnyEventObject, type AnyStateMachine, transition } from 'xstate';
import { mcpOperationGuards } from '../../../src/machines/mcp-operation/mcp-operation.guards.js';
import {
  mcpOperationMachine,
  mcpOperationSetup,
} from '../../../src/machines/mcp-operation/mcp-operation.machine.js';
import type { McpOperationContext } from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import { isInsideFence } from '../../../src/wire/index.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { buildModelGraph, type ModelEdge, type ModelOptions } from '../../support/model-graph.js';
import {
  mcpAutoModelOptions,
  mcpDiscoveredModelOptions,
  mcpListModelOptions,
  mcpModelOptions,
  mcpRelayModelOptions,
  mcpSseModelOptions,
  mcpStatelessDeferringModelOptions,
  mcpStatelessListModelOptions,
  mcpStatelessModelOptions,
  mcpStatelessResumingModelOptions,
  mcpStatelessTaskTakingModelOptions,
  mcpStreamableOnlyModelOptions,
  mcpTokenlessModelOptions,
} from '../../support/model-mcp-operation.js';

const ONLY_FIRST_INITIALIZE_ON_400_404_405 = [400, 404, 405].map((status) => ({
  from: { session: 'initializing' },
  event: 'xstate.done.actor.postInitialize',
  status,
}));

/**
 * The call and the paged discovery (at most two pages in the model) of a connection that probes
 * its wire, and the call of a connection told its wire (legacy SSE, or Streamable HTTP only).
 */
// Every stable legacy state takes each of the model's stream events, since each carries bytes
// that count (decision 0018): the ones no state decides on are self-loops on `legacy`, and the two
// past the byte ceiling are edges into the final state. A legacy POST step is three vertices
// (decision 0019): nothing arrived yet, the POST accepted, or the answer held (valid or an error).
const MODELS: readonly {
  readonly name: string;
  readonly options: ModelOptions;
  /** Vertices and edges of the explored model; edges into the final state; edges into a legacy POST. */
  readonly size: { states: number; edges: number; finalEdges: number; legacyPostEdges: number };
  /** Every edge into the legacy wire from outside it. */
  readonly intoLegacy: readonly unknown[];
  /** Whether 400/404/405 on the first initialize falls back. */
  readonly probes: boolean;
}[] = [
  {
    name: 'tools/call',
    options: mcpModelOptions,
    size: { states: 71, edges: 582, finalEdges: 251, legacyPostEdges: 113 },
    intoLegacy: ONLY_FIRST_INITIALIZE_ON_400_404_405,
    probes: true,
  },
  {
    name: 'tools/call, no token provider',
    options: mcpTokenlessModelOptions,
    // The call model without `credentials`: one state and its four edges (done, error, deadline,
    // CANCEL) fewer, three of them into the final state.
    size: { states: 70, edges: 578, finalEdges: 248, legacyPostEdges: 113 },
    intoLegacy: ONLY_FIRST_INITIALIZE_ON_400_404_405,
    probes: true,
  },
  {
    name: 'tools/list',
    options: mcpListModelOptions,
    size: { states: 116, edges: 857, finalEdges: 373, legacyPostEdges: 154 },
    intoLegacy: ONLY_FIRST_INITIALIZE_ON_400_404_405,
    probes: true,
  },
  {
    name: 'tools/call, transport sse',
    options: mcpSseModelOptions,
    size: { states: 17, edges: 250, finalEdges: 122, legacyPostEdges: 113 },
    intoLegacy: [
      { from: 'credentials', event: 'xstate.done.actor.resolveCredentials', status: undefined },
    ],
    probes: false,
  },
  {
    name: 'tools/call, transport streamable-http',
    options: mcpStreamableOnlyModelOptions,
    size: { states: 61, edges: 344, finalEdges: 143, legacyPostEdges: 0 },
    intoLegacy: [],
    probes: false,
  },
  {
    name: 'tools/call relaying to a caller that can sample, transport streamable-http',
    options: mcpRelayModelOptions,
    size: { states: 63, edges: 356, finalEdges: 149, legacyPostEdges: 0 },
    intoLegacy: [],
    probes: false,
  },
  {
    // The stateless wire (MCP 2026-07-28): credentials, one POST whose progress extends its window,
    // up to two input_required rounds (the model's limit), and the outcome; every other edge ends
    // the run (no cancellation notice, no session).
    name: 'tools/call, protocol 2026-07-28',
    options: mcpStatelessModelOptions,
    size: { states: 19, edges: 144, finalEdges: 115, legacyPostEdges: 0 },
    intoLegacy: [],
    probes: false,
  },
  {
    // A gateway's 2026 client: the same call, with an input_required answer ending the run (its
    // questions go back to the client) instead of an answering round.
    name: 'tools/call, protocol 2026-07-28, a caller that answers by a retry',
    options: mcpStatelessDeferringModelOptions,
    size: { states: 9, edges: 68, finalEdges: 56, legacyPostEdges: 0 },
    intoLegacy: [],
    probes: false,
  },
  {
    // A gateway's 2026 client that declared the tasks extension: a created task ends the run
    // with the task (no task state, no tasks/cancel) instead of being driven.
    name: 'tools/call, protocol 2026-07-28, a caller that takes tasks',
    options: mcpStatelessTaskTakingModelOptions,
    size: { states: 7, edges: 56, finalEdges: 50, legacyPostEdges: 0 },
    intoLegacy: [],
    probes: false,
  },
  {
    // The retry of such a client that answers a task's question: credentials, then the task the
    // answers are for; no request of its own.
    name: 'tools/call, protocol 2026-07-28, a retry that resumes a task',
    options: mcpStatelessResumingModelOptions,
    size: { states: 4, edges: 10, finalEdges: 7, legacyPostEdges: 0 },
    intoLegacy: [],
    probes: false,
  },
  {
    name: 'tools/list, protocol 2026-07-28',
    options: mcpStatelessListModelOptions,
    size: { states: 13, edges: 104, finalEdges: 91, legacyPostEdges: 0 },
    intoLegacy: [],
    probes: false,
  },
  {
    // A probing call: the stateless POST first (one more state), then, answered as a 2025 server
    // answers, the 2025 call model; a -32022 after the move ends the run instead of moving back.
    name: 'tools/call, auto (the stateless POST first)',
    options: mcpAutoModelOptions,
    size: { states: 81, edges: 680, finalEdges: 323, legacyPostEdges: 113 },
    intoLegacy: ONLY_FIRST_INITIALIZE_ON_400_404_405,
    probes: true,
  },
  {
    // A call holding a 2025 revision: the 2025 call model, and a -32022 naming 2026-07-28 moves it
    // to the stateless POST once.
    name: 'tools/call, a 2025 revision that may be contradicted once',
    options: mcpDiscoveredModelOptions,
    size: { states: 80, edges: 654, finalEdges: 309, legacyPostEdges: 113 },
    intoLegacy: ONLY_FIRST_INITIALIZE_ON_400_404_405,
    probes: true,
  },
];

const LEGACY_STATES = [
  'initializing',
  'initializeCheck',
  'notifying',
  'requesting',
  'responseCheck',
];

/** Every model edge into the legacy wire from outside it: where the fallback can happen. */
function fallbackEdges(machine: AnyStateMachine, options: ModelOptions) {
  return buildModelGraph(machine, options)
    .edges.filter(
      (edge) => edge.targetSnapshot.matches('sse') && !edge.sourceSnapshot.matches('sse'),
    )
    .map((edge) => ({
      from: edge.sourceSnapshot.value,
      event: edge.event.type,
      status: (edge.event as { output?: { status?: number } }).output?.status,
    }));
}

/** Model states that post to the legacy endpoint although it is outside the fence. */
function postsOutsideFence(machine: AnyStateMachine, options: ModelOptions) {
  return buildModelGraph(machine, options)
    .edges.map((edge) => edge.targetSnapshot)
    .filter((snapshot) => LEGACY_STATES.some((state) => snapshot.matches({ sse: state })))
    .filter((snapshot) => {
      const { endpoint, fence } = snapshot.context as McpOperationContext;
      return endpoint === undefined || !isInsideFence(new URL(endpoint), fence);
    });
}

describe.each(MODELS)('mcpOperation model of $name', ({ options, size, intoLegacy, probes }) => {
  it('satisfies invariants 1–4: no trap state, teardown into final, cleanup on exit, deadlines and CANCEL, delays resolve', () => {
    const report = checkModel(mcpOperationMachine, options);
    expect(modelCheckProblems(report)).toEqual([]);
    expect({ states: report.states, edges: report.edges }).toEqual({
      states: size.states,
      edges: size.edges,
    });
  });

  it('decides an outcome on every edge into the final state (the output fallback is unreachable)', () => {
    const graph = buildModelGraph(mcpOperationMachine, options);
    const final = graph.edges.filter((edge) => edge.targetSnapshot.status === 'done');
    expect(final).toHaveLength(size.finalEdges);
    const withoutOutcome = final.filter(
      (edge) => (edge.targetSnapshot.context as McpOperationContext).outcome === undefined,
    );
    expect(withoutOutcome.map((edge) => edge.event.type)).toEqual([]);
  });

  it('enters legacy SSE only by the fallback from the first initialize on 400, 404 and 405, or when told to', () => {
    expect(fallbackEdges(mcpOperationMachine, options)).toEqual(intoLegacy);
  });

  it('never falls back from any other state or status (every status 100–599 on every exchange)', () => {
    const graph = buildModelGraph(mcpOperationMachine, options);
    const offenders: string[] = [];
    for (const snapshot of graph.states.values()) {
      if (snapshot.status !== 'active' || snapshot.matches('sse')) continue;
      for (const id of [
        'postInitialize',
        'postReinitialize',
        'postInitialized',
        'postRequest',
        'resumeRequest',
      ]) {
        for (let status = 100; status < 600; status += 1) {
          const event = {
            type: `xstate.done.actor.${id}`,
            output: { kind: 'http-error', status, body: '' },
          } as never;
          if (!snapshot.can(event)) continue;
          const [next] = transition(mcpOperationMachine, snapshot, event);
          const fellBack = next.matches('sse');
          const where = JSON.stringify(snapshot.value);
          const expected = probes && id === 'postInitialize' && [400, 404, 405].includes(status);
          if (fellBack && !expected) offenders.push(`${where} ${id} ${status}`);
          if (!fellBack && expected) offenders.push(`${where} ${id} ${status} did not fall back`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('never falls back on a -32022 refusal, whatever its status and the versions it names', () => {
    const graph = buildModelGraph(mcpOperationMachine, options);
    const offenders: string[] = [];
    for (const snapshot of graph.states.values()) {
      if (snapshot.status !== 'active' || snapshot.matches('sse')) continue;
      for (const status of [400, 404, 405]) {
        for (const supported of [['2026-07-28'], ['2099-01-01'], []]) {
          const event = {
            type: 'xstate.done.actor.postInitialize',
            output: {
              kind: 'http-error',
              status,
              body: '',
              rpcError: { code: -32022, message: 'no', data: { supported } },
            },
          } as never;
          if (!snapshot.can(event)) continue;
          const [next] = transition(mcpOperationMachine, snapshot, event);
          if (next.matches('sse')) offenders.push(`${status} ${supported.join(',')}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('never reaches a state that posts to the legacy endpoint unless the endpoint is inside the fence', () => {
    const graph = buildModelGraph(mcpOperationMachine, options);
    const posting = graph.edges.filter((edge) =>
      LEGACY_STATES.some((state) => edge.targetSnapshot.matches({ sse: state })),
    );
    expect(posting).toHaveLength(size.legacyPostEdges);
    expect(postsOutsideFence(mcpOperationMachine, options)).toEqual([]);
  });
});

const TEARDOWN = ['cancellingRequest', 'endingSession'];

/** Whether taking `edge` on `machine` executes the built-in action `type` for the `callerStream` child. */
function touchesCallerStream(
  machine: AnyStateMachine,
  edge: { sourceSnapshot: unknown; event: AnyEventObject },
  type: 'xstate.spawnChild' | 'xstate.stopChild',
): boolean {
  const [, actions] = transition(machine, edge.sourceSnapshot as never, edge.event as never);
  return (actions as readonly { type: string; params?: unknown }[]).some(
    (action) =>
      action.type === type &&
      (action.params as { id?: unknown } | undefined)?.id === 'callerStream',
  );
}

/**
 * The edges of a model that decide the outcome while the standalone stream is held, and those of
 * them that leave it open.
 */
function streamStops(machine: AnyStateMachine, options: ModelOptions) {
  const graph = buildModelGraph(machine, options);
  const deciding = graph.edges.filter(
    (edge) =>
      'callerStream' in edge.sourceSnapshot.children &&
      !TEARDOWN.some((state) => edge.sourceSnapshot.matches(state)) &&
      (edge.targetSnapshot.status === 'done' ||
        TEARDOWN.some((state) => edge.targetSnapshot.matches(state))),
  );
  const withoutStop = deciding.filter(
    (edge) => !touchesCallerStream(machine, edge, 'xstate.stopChild'),
  );
  return { deciding: deciding.length, withoutStop: withoutStop.map((edge) => edge.event.type) };
}

/** Where an edge starts, and the session facts of its source. */
function sessionFactsOf(edge: ModelEdge) {
  const context = edge.sourceSnapshot.context as McpOperationContext;
  return {
    from: edge.sourceSnapshot.value,
    session: context.sessionId !== undefined,
    reopened: context.sessionReopened,
  };
}

/** The distinct values of `items`, compared as JSON, in first-seen order. */
function distinct<T>(items: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) seen.set(JSON.stringify(item), item);
  return [...seen.values()];
}

describe('mcpOperation of a connection without a token provider', () => {
  it('starts with its first POST and never spawns resolveCredentials', () => {
    const initialOf = (options: ModelOptions) => {
      const graph = buildModelGraph(mcpOperationMachine, options);
      const snapshot = graph.states.get(graph.initial);
      return {
        value: snapshot?.value,
        resolving: snapshot?.children.resolveCredentials !== undefined,
        credentialEdges: graph.edges.filter((edge) => edge.sourceSnapshot.matches('credentials'))
          .length,
      };
    };
    expect(initialOf(mcpTokenlessModelOptions)).toEqual({
      value: { session: 'initializing' },
      resolving: false,
      credentialEdges: 0,
    });
    expect(initialOf(mcpModelOptions)).toEqual({
      value: 'credentials',
      resolving: true,
      credentialEdges: 4,
    });
  });
});

describe('mcpOperation holding the session standalone stream', () => {
  const spawnsOf = (options: ModelOptions) =>
    buildModelGraph(mcpOperationMachine, options)
      .edges.filter((edge) => touchesCallerStream(mcpOperationMachine, edge, 'xstate.spawnChild'))
      .map(sessionFactsOf);
  const notifying = { session: 'notifying' };

  it('holds it for a caller that declared something, in every session, from notifying', () => {
    // notifying's done (accepted, 500) and its network error, in each session state.
    expect(spawnsOf(mcpRelayModelOptions)).toEqual([
      ...Array(3).fill({ from: notifying, session: true, reopened: false }),
      ...Array(3).fill({ from: notifying, session: false, reopened: false }),
      ...Array(3).fill({ from: notifying, session: true, reopened: true }),
      ...Array(3).fill({ from: notifying, session: false, reopened: true }),
    ]);
  });

  it('holds it for a call that asked for progress only in a stateful session, and never for a listing', () => {
    expect(spawnsOf(mcpStreamableOnlyModelOptions)).toEqual([
      ...Array(3).fill({ from: notifying, session: true, reopened: false }),
      ...Array(3).fill({ from: notifying, session: true, reopened: true }),
    ]);
    // The listing model carries the same progress token; a listing asks for no progress.
    expect(spawnsOf(mcpListModelOptions)).toEqual([]);
  });

  it.each([
    ['relaying to a caller that can sample', mcpRelayModelOptions, DECIDING_WHILE_STREAM_HELD],
    ['asking for progress', mcpStreamableOnlyModelOptions, DECIDING_WHILE_PROGRESS_STREAM_HELD],
  ] as const)(
    'stops it on every edge that decides the outcome (a call %s)',
    (_, options, count) => {
      expect(streamStops(mcpOperationMachine, options)).toEqual({
        deciding: count,
        withoutStop: [],
      });
    },
  );

  it('goes on to the request past the deadline when the stream was held only for progress', () => {
    const graph = buildModelGraph(mcpOperationMachine, mcpStreamableOnlyModelOptions);
    const late = graph.edges.filter(
      (edge) =>
        edge.sourceSnapshot.matches({ session: 'openingCallerStream' }) &&
        edge.event.type.startsWith('xstate.after.HANDSHAKE_DEADLINE.'),
    );
    expect(distinct(late.map((edge) => edge.targetSnapshot.value))).toEqual([
      { session: { requesting: 'waiting' } },
    ]);
    const relayLate = buildModelGraph(mcpOperationMachine, mcpRelayModelOptions).edges.filter(
      (edge) =>
        edge.sourceSnapshot.matches({ session: 'openingCallerStream' }) &&
        edge.event.type.startsWith('xstate.after.HANDSHAKE_DEADLINE.'),
    );
    expect(
      distinct(
        relayLate.map((edge) => (edge.targetSnapshot.context as McpOperationContext).outcome?.ok),
      ),
    ).toEqual([false]);
  });
});

/** The edges into a new session's `initialize`, with where they start. */
function reopenings(machine: AnyStateMachine, options: ModelOptions) {
  return buildModelGraph(machine, options)
    .edges.filter(
      (edge) =>
        edge.targetSnapshot.matches({ session: 'reinitializing' }) &&
        !edge.sourceSnapshot.matches({ session: 'reinitializing' }),
    )
    .map((edge) => ({
      ...sessionFactsOf(edge),
      event: edge.event.type,
      status: (edge.event as { output?: { status?: number } }).output?.status,
    }));
}

const SESSION_MODELS = [
  ['tools/call', mcpModelOptions],
  ['tools/list', mcpListModelOptions],
  ['tools/call relaying to a caller', mcpRelayModelOptions],
  ['tools/call, auto', mcpAutoModelOptions],
  ['tools/call, a 2025 revision', mcpDiscoveredModelOptions],
] as const;

describe('mcpOperation when the server lost the session', () => {
  it.each(SESSION_MODELS)(
    '%s: re-opens only on a 404 to the request that carried the session id, once',
    (_, options) => {
      expect(distinct(reopenings(mcpOperationMachine, options))).toEqual([
        {
          from: { session: { requesting: 'waiting' } },
          session: true,
          reopened: false,
          event: 'xstate.done.actor.postRequest',
          status: 404,
        },
      ]);
    },
  );

  it.each(SESSION_MODELS)(
    '%s: a 404 in the re-opened session ends in the request error, status 404',
    (_, options) => {
      const graph = buildModelGraph(mcpOperationMachine, options);
      const second = graph.edges.filter(
        (edge) =>
          (edge.sourceSnapshot.context as McpOperationContext).sessionReopened &&
          edge.sourceSnapshot.matches({ session: 'requesting' }) &&
          edge.event.type === 'xstate.done.actor.postRequest' &&
          (edge.event as { output?: { status?: number } }).output?.status === 404,
      );
      expect(second.length).toBeGreaterThan(0);
      const outcomes = second.map((edge) => {
        const outcome = (edge.targetSnapshot.context as McpOperationContext).outcome;
        const error = outcome?.ok === false ? outcome.error : undefined;
        return {
          error: error instanceof Error ? error.name : error,
          status: (error as { status?: number } | undefined)?.status,
        };
      });
      expect(distinct(outcomes)).toEqual([{ error: 'ConnectionRequestError', status: 404 }]);
    },
  );

  it('stops the lost session stream on the way to the new session', () => {
    const graph = buildModelGraph(mcpOperationMachine, mcpRelayModelOptions);
    const holding = graph.edges.filter(
      (edge) =>
        edge.targetSnapshot.matches({ session: 'reinitializing' }) &&
        'callerStream' in edge.sourceSnapshot.children,
    );
    expect(holding.length).toBeGreaterThan(0);
    expect(
      holding.filter((edge) => !touchesCallerStream(mcpOperationMachine, edge, 'xstate.stopChild')),
    ).toEqual([]);
  });

  it('never leaves the new session initialize for legacy SSE or the other revision', () => {
    const leaving = buildModelGraph(mcpOperationMachine, mcpAutoModelOptions)
      .edges.filter((edge) => edge.sourceSnapshot.matches({ session: 'reinitializing' }))
      .map((edge) => edge.targetSnapshot.value)
      .filter((value) => typeof value === 'object' && !('session' in value));
    expect(distinct(leaving)).toEqual([]);
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
    expect(report.finalEdgesWithoutTeardown).toHaveLength(CALL_MODEL_FINAL_EDGES);
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

  it('sees the standalone stream left open once closing no longer stops it', () => {
    const config = mcpOperationMachine.config;
    const closing = (config.states as Record<string, Record<string, unknown>>).closing;
    const leavesStreamOpen = mcpOperationSetup.createMachine({
      ...config,
      states: { ...config.states, closing: { ...closing, entry: [] } },
    } as never) as unknown as AnyStateMachine;
    // The edges straight into the final state still stop it (a final machine stops its children);
    // those into the cancellation notice or the session DELETE would keep it open through them.
    expect(streamStops(leavesStreamOpen, mcpRelayModelOptions).withoutStop).toHaveLength(
      DECIDING_INTO_TEARDOWN_STATES,
    );
  });

  it('sees a lost session re-opened twice once the guard forgets the run already re-opened', () => {
    const reopensAgain = mcpOperationMachine.provide({
      guards: {
        isLostSession: (args, params) =>
          mcpOperationGuards.isLostSession(args, { ...params, reopened: false }),
      },
    });
    expect(
      distinct(reopenings(reopensAgain, mcpModelOptions).map((edge) => edge.reopened)),
    ).toEqual([false, true]);
  });

  it('sees no re-opened session once the lost-session alternative is removed', () => {
    const neverReopens = mcpOperationMachine.provide({ guards: { isLostSession: () => false } });
    expect(reopenings(neverReopens, mcpModelOptions)).toEqual([]);
  });

  it('sees the progress stream held for a sessionless server once the guard ignores the session', () => {
    const ignoresSession = mcpOperationMachine.provide({
      guards: {
        listensForSessionProgress: (args, params) =>
          mcpOperationGuards.listensForSessionProgress(args, {
            ...params,
            sessionId: new SecretValue('any'),
          }),
      },
    });
    const spawns = buildModelGraph(ignoresSession, mcpStreamableOnlyModelOptions)
      .edges.filter((edge) => touchesCallerStream(ignoresSession, edge, 'xstate.spawnChild'))
      .map(sessionFactsOf);
    expect(distinct(spawns.map((facts) => facts.session))).toEqual([true, false]);
  });

  it('sees posts to an endpoint outside the fence once the fence guard is bypassed', () => {
    const unfenced = mcpOperationMachine.provide({ guards: { isFencedEndpoint: () => true } });
    // The model's off-fence endpoint (another port) is let through into the legacy initialize.
    expect(postsOutsideFence(unfenced, mcpModelOptions)).toHaveLength(UNFENCED_LEGACY_POSTS);
  });
});

/**
 * Edges of the relaying model that decide the outcome while the standalone stream is held (the
 * edges out of `task` among them: its two endings, its actor's failure and its backstop).
 */
const DECIDING_WHILE_STREAM_HELD = 151;
/** The same in the model of a call that asked for progress (held only in a stateful session). */
const DECIDING_WHILE_PROGRESS_STREAM_HELD = 73;
/** Of the relaying model's, the edges into `cancellingRequest` or `endingSession`, not the final state. */
const DECIDING_INTO_TEARDOWN_STATES = 89;
/** Edges into the final state of the call model (MODELS[0].size.finalEdges). */
const CALL_MODEL_FINAL_EDGES = 251;
/** Legacy POST states reached once the fence guard lets the model's off-fence endpoint through. */
const UNFENCED_LEGACY_POSTS = 1;

/** Edges of the call model that do not enter the final state. */
function countNonFinalEdges(): number {
  return buildModelGraph(mcpOperationMachine, mcpModelOptions).edges.filter(
    (edge) => edge.targetSnapshot.status !== 'done',
  ).length;
}
