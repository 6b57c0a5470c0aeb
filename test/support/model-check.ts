/**
 * Model checks over any machine (docs/architecture.md, "Invariants": 1–4): reachability of a final state,
 * teardown and cleanup on edges (from the pure `transition()` action lists), deadlines and
 * `CANCEL` on waiting states, and delay names that resolve. Each check returns its offenders as
 * readable strings; an empty array means the invariant holds.
 */
import { type AnyStateMachine, type AnyStateNode, transition } from 'xstate';
import {
  activeNodes,
  allStateNodes,
  buildModelGraph,
  describeEdge,
  type ModelGraph,
  type ModelOptions,
  selfAndAncestors,
} from './model-graph.js';

/** Options of the checks, on top of the explored model's options. */
export interface ModelCheckOptions extends ModelOptions {
  /** The action every edge into a final state must run; default `'teardown'`. */
  readonly teardownAction?: string;
  /** The cancellation event every non-final state must handle; default `'CANCEL'`. */
  readonly cancelEvent?: string;
  /**
   * State node ids (`wait.sleeping`) or paths (`sleeping`) allowed to wait without a deadline,
   * e.g. an idle state that only a caller event leaves.
   */
  readonly allowWithoutDeadline?: readonly string[];
}

/** Invariant 1: vertices from which no final (`done`) vertex is reachable (trap states). */
export function findTrapStates(graph: ModelGraph): string[] {
  const canFinish = new Set(
    [...graph.states].filter(([, snapshot]) => snapshot.status === 'done').map(([key]) => key),
  );
  let grew = true;
  while (grew) {
    grew = false;
    for (const edge of graph.edges) {
      if (canFinish.has(edge.target) && !canFinish.has(edge.source)) {
        canFinish.add(edge.source);
        grew = true;
      }
    }
  }
  return [...graph.states.keys()].filter((key) => !canFinish.has(key));
}

function actionsOf(machine: AnyStateMachine, edge: ModelGraph['edges'][number]) {
  const [, actions] = transition(machine, edge.sourceSnapshot, edge.event);
  return actions as readonly { readonly type: string; readonly params?: unknown }[];
}

/** Invariant 2a: edges into a final state whose actions do not include the teardown action. */
export function findFinalEdgesWithoutTeardown(
  machine: AnyStateMachine,
  graph: ModelGraph,
  teardownAction = 'teardown',
): string[] {
  return graph.edges
    .filter((edge) => edge.targetSnapshot.status === 'done')
    .filter((edge) => !actionsOf(machine, edge).some((action) => action.type === teardownAction))
    .map((edge) => `${describeEdge(edge)}: no ${teardownAction}`);
}

/**
 * Invariant 2b: edges that leave a state with `after` timers or invoked actors without an
 * `xstate.cancel` for each of its timers and an `xstate.stopChild` for each of its actors.
 */
export function findExitsWithoutCleanup(machine: AnyStateMachine, graph: ModelGraph): string[] {
  const offenders: string[] = [];
  for (const edge of graph.edges) {
    const stillActive = new Set(activeNodes(edge.targetSnapshot));
    const exited = activeNodes(edge.sourceSnapshot).filter((node) => !stillActive.has(node));
    if (exited.length === 0) continue;
    const actions = actionsOf(machine, edge);
    const cancelled = new Set(
      actions
        .filter((action) => action.type === 'xstate.cancel')
        .map((action) => (action.params as { sendId?: unknown } | undefined)?.sendId),
    );
    const stopped = new Set(
      actions
        .filter((action) => action.type === 'xstate.stopChild')
        .map((action) => (action.params as { id?: unknown } | undefined)?.id),
    );
    for (const node of exited) {
      for (const eventType of new Set(node.after.map((after) => after.eventType))) {
        if (!cancelled.has(eventType)) {
          offenders.push(`${describeEdge(edge)}: timer ${eventType} of ${node.id} not cancelled`);
        }
      }
      for (const invoke of node.invoke) {
        if (!stopped.has(invoke.id)) {
          offenders.push(`${describeEdge(edge)}: actor ${invoke.id} of ${node.id} not stopped`);
        }
      }
    }
  }
  return offenders;
}

function isTransient(node: AnyStateNode): boolean {
  return (node.always ?? []).some((always) => always.guard === undefined);
}

function matchesName(node: AnyStateNode, names: readonly string[]): boolean {
  return names.includes(node.id) || names.includes(node.path.join('.'));
}

/**
 * Invariant 3: non-final atomic states that wait (no unguarded `always`) without a deadline (own
 * or ancestor `after`) unless allow-listed, or without a `CANCEL` transition (own or ancestor).
 */
export function findWaitingStatesWithoutDeadlineOrCancel(
  machine: AnyStateMachine,
  options: Pick<ModelCheckOptions, 'cancelEvent' | 'allowWithoutDeadline'> = {},
): string[] {
  const cancelEvent = options.cancelEvent ?? 'CANCEL';
  const allowed = options.allowWithoutDeadline ?? [];
  const offenders: string[] = [];
  for (const node of allStateNodes(machine.root)) {
    if (node.type !== 'atomic' || isTransient(node)) continue;
    const chain = selfAndAncestors(node);
    if (!matchesName(node, allowed) && !chain.some((owner) => owner.after.length > 0)) {
      offenders.push(`${node.id}: waits without a deadline`);
    }
    if (!chain.some((owner) => owner.transitions.has(cancelEvent))) {
      offenders.push(`${node.id}: no ${cancelEvent} transition`);
    }
  }
  return offenders;
}

/**
 * Invariant 4: `after` delays that do not resolve to a finite number or a function (XState fires
 * an unresolved delay at once). With a graph, function delays are also evaluated on every
 * reachable snapshot where their state is active and must return a finite, non-negative number.
 */
export function findUnresolvedDelays(machine: AnyStateMachine, graph?: ModelGraph): string[] {
  const delays = (machine.implementations.delays ?? {}) as Record<string, unknown>;
  const offenders: string[] = [];
  for (const node of allStateNodes(machine.root)) {
    for (const after of node.after) {
      const { delay } = after;
      if (typeof delay === 'number') {
        if (!Number.isFinite(delay)) offenders.push(`${node.id}: after ${delay} is not finite`);
        continue;
      }
      const resolved = delays[String(delay)];
      if (typeof resolved === 'function') continue;
      if (typeof resolved !== 'number' || !Number.isFinite(resolved)) {
        offenders.push(`${node.id}: after "${String(delay)}" -> ${String(resolved)}`);
      }
    }
  }
  for (const snapshot of graph?.states.values() ?? []) {
    for (const node of activeNodes(snapshot)) {
      for (const after of node.after) {
        const resolved = delays[String(after.delay)];
        if (typeof resolved !== 'function') continue;
        const value: unknown = resolved(
          { context: snapshot.context, event: { type: '' } },
          undefined,
        );
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
          offenders.push(
            `${node.id}: after "${String(after.delay)}" evaluates to ${String(value)}`,
          );
        }
      }
    }
  }
  return [...new Set(offenders)];
}

/** Every check's offenders, and the size of the explored model. */
export interface ModelCheckReport {
  readonly states: number;
  readonly edges: number;
  readonly trapStates: readonly string[];
  readonly finalEdgesWithoutTeardown: readonly string[];
  readonly exitsWithoutCleanup: readonly string[];
  readonly waitingStatesWithoutDeadlineOrCancel: readonly string[];
  readonly unresolvedDelays: readonly string[];
}

/** Explores the machine and runs invariants 1–4. */
export function checkModel(
  machine: AnyStateMachine,
  options: ModelCheckOptions = {},
): ModelCheckReport {
  const graph = buildModelGraph(machine, options);
  return {
    states: graph.states.size,
    edges: graph.edges.length,
    trapStates: findTrapStates(graph),
    finalEdgesWithoutTeardown: findFinalEdgesWithoutTeardown(
      machine,
      graph,
      options.teardownAction,
    ),
    exitsWithoutCleanup: findExitsWithoutCleanup(machine, graph),
    waitingStatesWithoutDeadlineOrCancel: findWaitingStatesWithoutDeadlineOrCancel(
      machine,
      options,
    ),
    unresolvedDelays: findUnresolvedDelays(machine, graph),
  };
}

/** All offenders of a report in one list (empty when every invariant holds). */
export function modelCheckProblems(report: ModelCheckReport): string[] {
  return [
    ...report.trapStates.map((state) => `trap state: ${state}`),
    ...report.finalEdgesWithoutTeardown,
    ...report.exitsWithoutCleanup,
    ...report.waitingStatesWithoutDeadlineOrCancel,
    ...report.unresolvedDelays,
  ];
}
