/**
 * Seeded defects of the kind "a guarded alternative removed": every guarded row of a machine's
 * transition table, and a copy of the machine without one of them (the same implementations, one
 * row fewer). The model checks must notice each: the edge set of some model changes, or the row
 * was never walked and its line leaves the pinned `never walked` section.
 */
import { type AnyStateMachine, type AnyStateNode, createMachine } from 'xstate';
import { stateNodes } from '../../src/diagrams/walk.js';
import { edgeLine, transitionName } from './model-edges.js';
import { buildModelGraph, type ModelGraph, type ModelOptions } from './model-graph.js';

/** One guarded row of the transition table. */
export interface GuardedAlternative {
  /** Its name as in the edge sets (`polling after POLL_DEADLINE #1 [hasState]`). */
  readonly name: string;
  /** The state node's path from the root (empty for the root). */
  readonly path: readonly string[];
  /** The event type the row answers (`''` for `always`). */
  readonly eventType: string;
  /** Its place among the event's rows, from 0. */
  readonly index: number;
  /** The state node that holds it. */
  readonly node: AnyStateNode;
}

/** Every guarded row of the machine, in table order. */
export function guardedAlternatives(machine: AnyStateMachine): GuardedAlternative[] {
  const found: GuardedAlternative[] = [];
  for (const node of [machine.root, ...stateNodes(machine)]) {
    const tables: [string, readonly { readonly guard?: unknown }[]][] = [
      ...node.transitions,
      ['', node.always ?? []],
    ];
    for (const [eventType, rows] of tables) {
      rows.forEach((row, index) => {
        if (row.guard === undefined) return;
        found.push({
          name: transitionName(node, eventType, index),
          path: node.path,
          eventType,
          index,
          node,
        });
      });
    }
  }
  return found;
}

type Config = Record<string, unknown>;

/** `rows` (one row or a list) without the row at `index`; `undefined` when none is left. */
function withoutRow(rows: unknown, index: number): unknown {
  const list = Array.isArray(rows) ? [...rows] : [rows];
  list.splice(index, 1);
  return list.length === 0 ? undefined : list;
}

/** `record` with `key` set to `value`, or without `key` when `value` is `undefined`. */
function withKey(record: unknown, key: string, value: unknown): Config {
  const copy: Config = { ...(record as Config) };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** A state node's config without the alternative's row. */
function removeFromNode(config: Config, alternative: GuardedAlternative): Config {
  const { eventType, index, node } = alternative;
  if (eventType === '') return withKey(config, 'always', withoutRow(config.always, index));
  const delayed = node.after.find((after) => after.eventType === eventType);
  if (delayed !== undefined) {
    const after = config.after as Config;
    const delay = String(delayed.delay);
    return { ...config, after: withKey(after, delay, withoutRow(after[delay], index)) };
  }
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor !== null) {
    const key = actor[1] === 'done' ? 'onDone' : 'onError';
    const invokes = (Array.isArray(config.invoke) ? config.invoke : [config.invoke]) as Config[];
    const patched = invokes.map((invoke) =>
      invoke.id === actor[2] ? withKey(invoke, key, withoutRow(invoke[key], index)) : invoke,
    );
    return { ...config, invoke: Array.isArray(config.invoke) ? patched : patched[0] };
  }
  const on = config.on as Config;
  return { ...config, on: withKey(on, eventType, withoutRow(on[eventType], index)) };
}

function patchAt(config: Config, path: readonly string[], patch: (node: Config) => Config): Config {
  const [head, ...rest] = path;
  if (head === undefined) return patch(config);
  const states = config.states as Config;
  return { ...config, states: { ...states, [head]: patchAt(states[head] as Config, rest, patch) } };
}

/** A copy of `machine` (same implementations) without one guarded row. */
export function withoutAlternative(
  machine: AnyStateMachine,
  alternative: GuardedAlternative,
): AnyStateMachine {
  const config = patchAt(machine.config as Config, alternative.path, (node) =>
    removeFromNode(node, alternative),
  );
  return createMachine(config as never, machine.implementations as never) as AnyStateMachine;
}

/**
 * The edge set of a model as the pure model predicts it (what a passing walk takes): the lines
 * of every explored edge, sorted. Takes the explored graph when the caller has it already.
 */
export function modelEdgeLines(
  machine: AnyStateMachine,
  options: ModelOptions,
  graph: ModelGraph = buildModelGraph(machine, options),
): string[] {
  const lines = new Set(
    graph.edges.map((edge) =>
      edgeLine(machine, {
        sourceKey: edge.source,
        source: edge.sourceSnapshot,
        event: edge.event,
        targetKey: edge.target,
        target: edge.targetSnapshot,
      }),
    ),
  );
  return [...lines].sort();
}
