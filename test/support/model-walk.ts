/**
 * Model-based walking (docs/architecture.md, "Invariants": every edge walked): drives the REAL actor along paths that together
 * cover every edge of the explored model, and checks after each step that the actor is in the
 * vertex the model predicts. Needs vitest fake timers (`vi.useFakeTimers()`).
 *
 * Executors are keyed by event type and make the real actor take that edge: resolve or reject a
 * deferred invoke result, send an event, or advance time. Defaults: events not starting with
 * `xstate.` are sent as they are; `xstate.after.*` advances fake time by the delay resolved on the
 * actor's current snapshot (first to one millisecond before it, checking nothing switched). Invoke
 * results have no default: the caller supplies how its deferreds settle.
 *
 * The report carries the edge set the real actor walked (`test/support/model-edges.ts`): each
 * line written from the actor's own snapshots before and after the step, so an edge the model
 * predicts but the actor does not take shows as it was taken; and the definition's transitions
 * the actor took (reported by XState's inspector), so one no walk takes shows up too.
 */

import { vi } from 'vitest';
import {
  type Actor,
  type AnyEventObject,
  type AnyStateMachine,
  createActor,
  type InspectionEvent,
} from 'xstate';
import { edgeLine, takenTransitionName } from './model-edges.js';
import {
  activeNodes,
  buildModelGraph,
  describeEdge,
  type ModelEdge,
  type ModelOptions,
  serializeValueAndStatus,
} from './model-graph.js';

/** What an executor receives. */
export interface WalkStep {
  /** The real actor under test. */
  readonly actor: Actor<AnyStateMachine>;
  /** The model's event for this edge (a case or a bare type). */
  readonly event: AnyEventObject;
  /** The model edge being walked. */
  readonly edge: ModelEdge;
}

/** Makes the real actor take one edge. */
export type WalkExecutor = (step: WalkStep) => void | Promise<void>;

/** Options of {@link walkEveryEdge}. */
export interface ModelWalkOptions extends ModelOptions {
  /** Executors keyed by event type; they override the defaults. */
  readonly executors?: Readonly<Record<string, WalkExecutor>>;
  /** Runs before each path's actor is created (reset deferreds, counters). */
  readonly beforePath?: () => void;
}

/** A machine ready to be walked (its actors deferred) and the options of its walk. */
export interface WalkHarness {
  /** The definition with the harness's deferred actors provided. */
  readonly machine: AnyStateMachine;
  /** The model's options and the executors that settle the deferreds. */
  readonly options: ModelWalkOptions;
}

/** The outcome of a walk. */
export interface ModelWalkReport {
  /** Distinct model edges the real actor took as predicted. */
  readonly walked: number;
  /** Edges of the model. */
  readonly total: number;
  /** Paths run. */
  readonly paths: number;
  /** Mismatches, missing executors, actor errors, and timers left after a final state. */
  readonly failures: readonly string[];
  /** The edge set the real actor walked: sorted, distinct lines (see `model-edges.ts`). */
  readonly edges: readonly string[];
  /** The definition's transitions the real actor took, by table name, sorted. */
  readonly taken: readonly string[];
}

function delayMs(actor: Actor<AnyStateMachine>, eventType: string): number {
  const snapshot = actor.getSnapshot();
  const delays = (actor.logic.implementations.delays ?? {}) as Record<string, unknown>;
  for (const node of activeNodes(snapshot)) {
    const after = node.after.find((candidate) => candidate.eventType === eventType);
    if (after === undefined) continue;
    if (typeof after.delay === 'number') return after.delay;
    const resolved = delays[String(after.delay)];
    if (typeof resolved === 'number') return resolved;
    if (typeof resolved === 'function') {
      return resolved({ context: snapshot.context, event: { type: eventType } }, undefined);
    }
    throw new Error(`delay "${String(after.delay)}" does not resolve`);
  }
  throw new Error(`no active state schedules ${eventType}`);
}

async function settle(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

function executorFor(
  options: ModelWalkOptions,
  serialize: (actor: Actor<AnyStateMachine>) => string,
  eventType: string,
): WalkExecutor | undefined {
  const custom = options.executors?.[eventType];
  if (custom !== undefined) return custom;
  if (eventType.startsWith('xstate.after.')) {
    return async ({ actor, edge }) => {
      const ms = Math.max(0, delayMs(actor, eventType));
      if (ms > 0) {
        await vi.advanceTimersByTimeAsync(ms - 1);
        const early = serialize(actor);
        if (early !== edge.source) throw new Error(`left ${edge.source} early, for ${early}`);
      }
      await vi.advanceTimersByTimeAsync(ms > 0 ? 1 : 0);
    };
  }
  if (!eventType.startsWith('xstate.')) return ({ actor, event }) => actor.send(event);
  return undefined;
}

/** Shortest edge sequence from the initial vertex to every vertex (BFS over the model). */
function shortestRoutes(initial: string, edges: readonly ModelEdge[]): Map<string, ModelEdge[]> {
  const routes = new Map<string, ModelEdge[]>([[initial, []]]);
  const queue = [initial];
  for (let vertex = queue.shift(); vertex !== undefined; vertex = queue.shift()) {
    const route = routes.get(vertex) ?? [];
    for (const edge of edges) {
      if (edge.source !== vertex || routes.has(edge.target)) continue;
      routes.set(edge.target, [...route, edge]);
      queue.push(edge.target);
    }
  }
  return routes;
}

/**
 * Walks every edge of the model on the real actor: for each edge not yet walked, the shortest
 * route to its source followed by the edge. Returns `{ walked, total, paths, failures }`.
 */
export async function walkEveryEdge(
  machine: AnyStateMachine,
  options: ModelWalkOptions = {},
): Promise<ModelWalkReport> {
  if (!vi.isFakeTimers()) throw new Error('walkEveryEdge needs vi.useFakeTimers()');
  const serializeState = options.serializeState ?? serializeValueAndStatus;
  const serialize = (actor: Actor<AnyStateMachine>) => serializeState(actor.getSnapshot());
  const graph = buildModelGraph(machine, options);
  const routes = shortestRoutes(graph.initial, graph.edges);
  const key = (edge: ModelEdge) => `${edge.source} ${edge.eventKey}`;
  const walked = new Set<string>();
  const lines = new Set<string>();
  const taken = new Set<string>();
  const failures: string[] = [];
  let paths = 0;
  for (const target of graph.edges) {
    if (walked.has(key(target))) continue;
    const route = routes.get(target.source);
    if (route === undefined) {
      failures.push(`${describeEdge(target)}: source unreachable`);
      continue;
    }
    paths += 1;
    options.beforePath?.();
    const errors: unknown[] = [];
    const inspect = (inspection: InspectionEvent) => {
      // The initial microsteps are reported while the actor is constructed: known by its logic.
      if (
        inspection.type !== '@xstate.microstep' ||
        (inspection.actorRef as { logic?: unknown }).logic !== machine
      )
        return;
      for (const transition of inspection._transitions) taken.add(takenTransitionName(transition));
    };
    const actor = createActor(machine, { input: options.input, inspect });
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    await settle();
    try {
      if (serialize(actor) !== graph.initial) {
        throw new Error(`started in ${serialize(actor)}, expected ${graph.initial}`);
      }
      for (const edge of [...route, target]) {
        const execute = executorFor(options, serialize, edge.event.type);
        if (execute === undefined) throw new Error(`no executor for ${edge.event.type}`);
        const source = actor.getSnapshot();
        const sourceKey = serializeState(source);
        await execute({ actor, event: edge.event, edge });
        await settle();
        if (errors.length > 0) throw new Error(`actor error: ${String(errors[0])}`);
        const reached = serialize(actor);
        lines.add(
          edgeLine(machine, {
            sourceKey,
            source,
            event: edge.event,
            targetKey: reached,
            target: actor.getSnapshot(),
          }),
        );
        if (reached !== edge.target) {
          throw new Error(`${describeEdge(edge)}: the actor reached ${reached}`);
        }
        walked.add(key(edge));
      }
      if (actor.getSnapshot().status === 'done' && vi.getTimerCount() > 0) {
        throw new Error(`${vi.getTimerCount()} timer(s) left after the final state`);
      }
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    } finally {
      actor.stop();
      vi.clearAllTimers();
    }
  }
  return {
    walked: walked.size,
    total: graph.edges.length,
    paths,
    failures,
    edges: [...lines].sort(),
    taken: [...taken].sort(),
  };
}
