/**
 * The explored model of a machine, shared by the model checks and the model walker: the
 * adjacency map of `xstate/graph` over abstracted snapshots, as plain states and edges.
 */
import {
  __unsafe_getAllOwnEventDescriptors,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
} from 'xstate';
import { getAdjacencyMap, type TraversalOptions } from 'xstate/graph';

/** Options that decide which model is explored. */
export interface ModelOptions {
  /** The machine input used for the initial snapshot. */
  readonly input?: unknown;
  /**
   * Concrete events per event type. They are merged with the synthesized bare events (a type
   * without cases is sent as `{ type }`), unlike the `events` option of `xstate/graph`, which
   * replaces them. Use them for payloads that guards or actions read (invoke outputs, `reason`).
   */
  readonly eventCases?: Readonly<Record<string, readonly AnyEventObject[]>>;
  /** Abstracts a snapshot into a vertex key; default: value and status, context ignored. */
  readonly serializeState?: (snapshot: AnyMachineSnapshot) => string;
  /** Traversal limit (iterations); default 5 000. */
  readonly limit?: number;
  /**
   * Drops events that cannot happen in a vertex although the machine accepts them, e.g. the
   * later of two timers whose order the abstracted context already decides.
   */
  readonly isPossible?: (snapshot: AnyMachineSnapshot, event: AnyEventObject) => boolean;
}

/** One explored edge. */
export interface ModelEdge {
  /** Vertex key of the source. */
  readonly source: string;
  /** Vertex key of the target. */
  readonly target: string;
  /** The event (a case or a bare type). */
  readonly event: AnyEventObject;
  /** A readable, unique-per-source key: the JSON of the event. */
  readonly eventKey: string;
  /** The source snapshot as explored. */
  readonly sourceSnapshot: AnyMachineSnapshot;
  /** The target snapshot as explored. */
  readonly targetSnapshot: AnyMachineSnapshot;
}

/** The explored model. */
export interface ModelGraph {
  /** Vertex key of the initial snapshot. */
  readonly initial: string;
  /** Every reachable vertex and one snapshot for it. */
  readonly states: ReadonlyMap<string, AnyMachineSnapshot>;
  /** Every explored edge. */
  readonly edges: readonly ModelEdge[];
}

/** Vertex key that ignores context: `{"value":…,"status":…}`. */
export function serializeValueAndStatus(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({ value: snapshot.value, status: snapshot.status });
}

function describeEvent(event: AnyEventObject): string {
  return JSON.stringify(event, (_, value: unknown) =>
    value instanceof Error ? `${value.name}: ${value.message}` : value,
  );
}

/** Explores the machine with bare events merged with the given cases, keeping only enabled ones. */
export function buildModelGraph(machine: AnyStateMachine, options: ModelOptions = {}): ModelGraph {
  const serializeState = options.serializeState ?? serializeValueAndStatus;
  const cases = options.eventCases ?? {};
  const traversal: TraversalOptions<AnyMachineSnapshot, AnyEventObject, unknown> = {
    input: options.input,
    limit: options.limit ?? 5_000,
    serializeState: (snapshot) => serializeState(snapshot as AnyMachineSnapshot),
    serializeEvent: (event) => describeEvent(event as AnyEventObject),
    events: (snapshot) =>
      __unsafe_getAllOwnEventDescriptors(snapshot as AnyMachineSnapshot).flatMap(
        (type): AnyEventObject[] => [...(cases[type] ?? [{ type }])],
      ),
    filterEvents: (snapshot, event) => {
      const current = snapshot as AnyMachineSnapshot;
      if (current.status !== 'active') return false;
      if (options.isPossible?.(current, event as AnyEventObject) === false) return false;
      try {
        return current.can(event as AnyEventObject);
      } catch (error) {
        throw new Error(
          `a guard failed on ${describeEvent(event as AnyEventObject)} in ${serializeState(current)}; supply eventCases["${(event as AnyEventObject).type}"] (${String(error)})`,
        );
      }
    },
  };
  const adjacency = getAdjacencyMap(machine, traversal as never);
  const states = new Map<string, AnyMachineSnapshot>();
  const edges: ModelEdge[] = [];
  for (const [source, vertex] of Object.entries(adjacency)) {
    states.set(source, vertex.state as AnyMachineSnapshot);
    const transitions = vertex.transitions as Record<
      string,
      { readonly event: unknown; readonly state: unknown }
    >;
    for (const [eventKey, next] of Object.entries(transitions)) {
      edges.push({
        source,
        target: serializeState(next.state as AnyMachineSnapshot),
        event: next.event as AnyEventObject,
        eventKey,
        sourceSnapshot: vertex.state as AnyMachineSnapshot,
        targetSnapshot: next.state as AnyMachineSnapshot,
      });
    }
  }
  const [initial] = Object.keys(adjacency);
  if (initial === undefined) throw new Error('the machine has no initial snapshot');
  return { initial, states, edges };
}

/** The active state nodes of a snapshot (XState keeps them in `_nodes`). */
export function activeNodes(snapshot: AnyMachineSnapshot): readonly AnyStateNode[] {
  return (snapshot as unknown as { _nodes: readonly AnyStateNode[] })._nodes;
}

/** All state nodes of a machine, depth first. */
export function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return [
    node,
    ...Object.values(node.states).flatMap((child) => allStateNodes(child as AnyStateNode)),
  ];
}

/** The node and its ancestors, innermost first. */
export function selfAndAncestors(node: AnyStateNode): AnyStateNode[] {
  const chain: AnyStateNode[] = [];
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    chain.push(current);
  }
  return chain;
}

/** `source --event--> target`, for messages. */
export function describeEdge(edge: ModelEdge): string {
  return `${edge.source} --${edge.eventKey}--> ${edge.target}`;
}
