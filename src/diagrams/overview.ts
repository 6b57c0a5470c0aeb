/**
 * The overview of a machine, as data for the Mermaid and DOT renderers: every state, every
 * transition between states, the transitions into the teardown state folded into one edge per
 * state labelled by outcome kinds, the happy path (the spine), and the root's own transitions as
 * notes. Pure: built from the definition alone.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { isFailure, outcomeKind, SUCCESS_KIND, teardownState } from './outcomes.js';
import {
  actionNames,
  allTransitions,
  describeEventType,
  guardName,
  initialLeaf,
  isAncestorOrSelf,
  isComposite,
  shortEventLabel,
  stateNodes,
  statePath,
} from './walk.js';

/** One drawn edge: every transition from `source` to `target`, or `source`'s folded outcomes. */
export interface OverviewEdge {
  /** The state whose transitions these are (a composite's apply in each of its children). */
  readonly source: AnyStateNode;
  /** The target as the definition names it (a composite is entered at its initial leaf). */
  readonly target: AnyStateNode;
  /** Short label parts in the order XState tries them, without repeats; outcome kinds if folded. */
  readonly labels: readonly string[];
  /** The edge into the teardown state that stands for all of `source`'s transitions into it. */
  readonly folded: boolean;
  /** Every transition behind the edge is a failure. */
  readonly failure: boolean;
  /** The edge is a step of the happy path. */
  readonly spine: boolean;
}

/** What the overview diagrams draw. */
export interface MachineOverview {
  /** The machine's id, the diagrams' title. */
  readonly id: string;
  /** Every state node below the root, in document order. */
  readonly states: readonly AnyStateNode[];
  /** Where failures run (see `teardownState`); undefined when the machine has none. */
  readonly teardown: AnyStateNode | undefined;
  /** The happy path as leaf states, from the initial state to a final state. */
  readonly spine: readonly AnyStateNode[];
  /** Each composite's main line of leaves (see `lane`), keyed by the composite. */
  readonly lanes: ReadonlyMap<AnyStateNode, readonly AnyStateNode[]>;
  /** The edges, by source in document order. */
  readonly edges: readonly OverviewEdge[];
  /** The root's own transitions: they apply in every state that does not handle the event. */
  readonly notes: readonly RootNote[];
}

/** A transition of the root, drawn once as a note rather than from every state. */
export interface RootNote {
  /** The event as labelled (`CANCEL`, `after X`). */
  readonly event: string;
  /** The guard's name, if any. */
  readonly guard: string | undefined;
  /** Target state paths; empty when the transition keeps the state. */
  readonly targets: readonly string[];
  /** The outcome kind, when the target is the teardown state. */
  readonly kind: string | undefined;
  /** The states that handle the same event themselves (theirs is taken first). */
  readonly overriddenBy: readonly string[];
}

function stepLabel(node: AnyStateNode, transition: AnyTransitionDefinition): string {
  const guard = guardName(transition);
  return `${shortEventLabel(node, transition.eventType)}${guard === undefined ? '' : ` [${guard}]`}`;
}

/** The kind a folded edge shows: the table's, else the first action, else the event. */
function foldedLabel(node: AnyStateNode, transition: AnyTransitionDefinition): string {
  return (
    outcomeKind(transition) ??
    actionNames(transition)[0] ??
    shortEventLabel(node, transition.eventType)
  );
}

function pushUnique(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

/** The transitions that apply in a leaf, in the order XState tries them: the leaf's, then up. */
function applicableTransitions(leaf: AnyStateNode): AnyTransitionDefinition[] {
  const found: AnyTransitionDefinition[] = [];
  for (let node: AnyStateNode | undefined = leaf; node; node = node.parent) {
    found.push(...allTransitions(node));
  }
  return found;
}

/** One move of the happy path: `owner`'s transition into `target`, ending in the leaf `leaf`. */
interface Step {
  readonly owner: AnyStateNode;
  readonly target: AnyStateNode;
  readonly leaf: AnyStateNode;
}

function nextSteps(leaf: AnyStateNode): Step[] {
  return applicableTransitions(leaf)
    .filter((transition) => !isFailure(transition))
    .flatMap((transition) =>
      (transition.target ?? []).map((target) => ({
        owner: transition.source,
        target,
        leaf: initialLeaf(target),
      })),
    )
    .filter((step) => step.leaf !== leaf);
}

/** The fewest non-failure steps from `start` to a leaf `isGoal` accepts, expanding only `within`. */
function shortestPath(
  start: AnyStateNode,
  isGoal: (leaf: AnyStateNode) => boolean,
  within: (leaf: AnyStateNode) => boolean = () => true,
): Step[] {
  const reachedBy = new Map<AnyStateNode, { from: AnyStateNode; step: Step } | undefined>([
    [start, undefined],
  ]);
  const queue = [start];
  let goal: AnyStateNode | undefined;
  // Breadth first, each state's steps in XState's try order: ties go to what is tried first.
  for (let index = 0; index < queue.length && goal === undefined; index++) {
    const from = queue[index] as AnyStateNode;
    for (const step of nextSteps(from)) {
      if (reachedBy.has(step.leaf)) continue;
      reachedBy.set(step.leaf, { from, step });
      if (isGoal(step.leaf)) {
        goal = step.leaf;
        break;
      }
      if (within(step.leaf)) queue.push(step.leaf);
    }
  }
  const path: Step[] = [];
  for (let link = goal === undefined ? undefined : reachedBy.get(goal); link; ) {
    path.unshift(link.step);
    link = reachedBy.get(link.from);
  }
  return path;
}

/**
 * The happy path: the shortest path from the initial state to the teardown that takes no failure,
 * then the first transition tried until a final state, so cleanup steps after the outcome (ending
 * a session) stay on it.
 */
function happyPath(machine: AnyStateMachine, teardown: AnyStateNode | undefined): Step[] {
  const start = initialLeaf(machine.root);
  const goal = teardown === undefined ? undefined : initialLeaf(teardown);
  const path = goal === undefined ? [] : shortestPath(start, (leaf) => leaf === goal);
  // From the teardown on, the fewest steps to a final state: the cleanup that every run needs,
  // not the optional steps (a cancellation notice, a session end) tried before it.
  const last = path.at(-1)?.leaf ?? start;
  if (last.type !== 'final') path.push(...shortestPath(last, (leaf) => leaf.type === 'final'));
  return path;
}

/** A composite's own main line: from its initial leaf, the fewest steps until one leaves it. */
function lane(composite: AnyStateNode): AnyStateNode[] {
  const start = initialLeaf(composite);
  const inside = (leaf: AnyStateNode) => isAncestorOrSelf(composite, leaf);
  const steps = shortestPath(start, (leaf) => !inside(leaf), inside);
  return [start, ...steps.map((step) => step.leaf).filter(inside)];
}

function rootNotes(machine: AnyStateMachine, teardown: AnyStateNode | undefined): RootNote[] {
  const root = machine.root;
  return allTransitions(root).map((transition) => ({
    event: describeEventType(root, transition.eventType),
    guard: guardName(transition),
    targets: (transition.target ?? []).map(statePath),
    kind: transition.target?.[0] === teardown ? outcomeKind(transition) : undefined,
    overriddenBy: stateNodes(machine)
      .filter((node) => node.transitions.has(transition.eventType))
      .map(statePath),
  }));
}

/** One sentence for a root transition; `arrow` is what the renderer's font can draw. */
export function describeRootNote(note: RootNote, arrow = '→'): string {
  const guard = note.guard === undefined ? '' : ` [${note.guard}]`;
  const target = note.targets.length === 0 ? 'no state change' : note.targets.join(', ');
  const kind = note.kind === undefined ? '' : ` (${note.kind})`;
  const by = note.overriddenBy;
  const except =
    by.length === 0 ? '' : `; ${by.join(', ')} handle${by.length === 1 ? 's' : ''} it itself`;
  return `From any state: ${note.event}${guard} ${arrow} ${target}${kind}${except}`;
}

/** The overview of a machine (see `MachineOverview`). */
export function buildOverview(machine: AnyStateMachine): MachineOverview {
  const teardown = teardownState(machine);
  const steps = happyPath(machine, teardown);
  const spine = [initialLeaf(machine.root), ...steps.map((step) => step.leaf)];
  const states = stateNodes(machine);
  const edges: OverviewEdge[] = [];
  for (const source of states) {
    const groups = new Map<AnyStateNode, { labels: string[]; failure: boolean; folded: boolean }>();
    for (const transition of allTransitions(source)) {
      for (const target of transition.target ?? []) {
        const folded = target === teardown && source !== teardown;
        const group = groups.get(target) ?? { labels: [], failure: true, folded };
        groups.set(target, group);
        group.failure &&= isFailure(transition);
        pushUnique(
          group.labels,
          folded ? foldedLabel(source, transition) : stepLabel(source, transition),
        );
      }
    }
    for (const [target, group] of groups) {
      // A folded edge names success first, so the happy path reads before the failures.
      const labels = group.folded
        ? [
            ...group.labels.filter((l) => l === SUCCESS_KIND),
            ...group.labels.filter((l) => l !== SUCCESS_KIND),
          ]
        : group.labels;
      edges.push({
        source,
        target,
        labels,
        folded: group.folded,
        failure: group.failure,
        spine: steps.some((step) => step.owner === source && step.target === target),
      });
    }
  }
  const lanes = new Map(states.filter(isComposite).map((node) => [node, lane(node)] as const));
  return {
    id: machine.id,
    states,
    teardown,
    spine,
    lanes,
    edges,
    notes: rootNotes(machine, teardown),
  };
}
