/**
 * The walk over a machine's state node tree that every diagram shares: state nodes in document
 * order, their transitions in the order XState tries them, and the names of what they run.
 * Pure: reads only the definition (`machine.root`, `node.states`, `node.transitions`, ...).
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/** The name of an implementation reference (`'x'`, `{ type: 'x' }`, a named function). */
export function implementationName(reference: unknown): string | undefined {
  if (typeof reference === 'string') return reference;
  if (typeof reference === 'function') {
    const type = (reference as { type?: unknown }).type;
    // Built-in actions (the raise/cancel behind `after`, inline `assign`) are not implementations.
    if (typeof type === 'string') return type.startsWith('xstate.') ? undefined : type;
    return reference.name === '' ? undefined : reference.name;
  }
  if (typeof reference === 'object' && reference !== null) {
    const type = (reference as { type?: unknown }).type;
    return typeof type === 'string' ? type : undefined;
  }
  return undefined;
}

/** `after DELAY`, `done(id)`, `error(id)`, `always`, or the event type itself. */
export function describeEventType(node: AnyStateNode, eventType: string): string {
  if (eventType === '') return 'always';
  if (eventType.startsWith('xstate.after.')) {
    const delayed = node.after.find((after) => after.eventType === eventType);
    return `after ${String(delayed?.delay ?? eventType.slice('xstate.after.'.length))}`;
  }
  for (const [prefix, label] of [
    ['xstate.done.actor.', 'done'],
    ['xstate.error.actor.', 'error'],
    ['xstate.done.state.', 'done.state'],
  ] as const) {
    if (eventType.startsWith(prefix)) return `${label}(${eventType.slice(prefix.length)})`;
  }
  return eventType;
}

/** The event without the actor id: `done`, `error`, `after DELAY`, `always`, or the type. */
export function shortEventLabel(node: AnyStateNode, eventType: string): string {
  return describeEventType(node, eventType).replace(/^(done|error|done\.state)\(.*\)$/, '$1');
}

/** The guard's name, if the transition has one (an unnamed inline guard reads `guard`). */
export function guardName(transition: AnyTransitionDefinition): string | undefined {
  if (transition.guard === undefined) return undefined;
  return implementationName(transition.guard) ?? 'guard';
}

/** The named actions of a transition, in the order they run. */
export function actionNames(transition: AnyTransitionDefinition): string[] {
  return transition.actions
    .map((action) => implementationName(action))
    .filter((name): name is string => name !== undefined);
}

/** Every transition of a node: its events, invoke results and delays first, then `always`. */
export function allTransitions(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

/** The direct child state nodes, in document order. */
export function childNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[];
}

/** Every state node below the root, depth first in document order (a parent before its children). */
export function stateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const visit = (node: AnyStateNode): AnyStateNode[] =>
    childNodes(node).flatMap((child) => [child, ...visit(child)]);
  return visit(machine.root);
}

/** The dotted path of a state node (`session.requesting`); the root has the empty path. */
export function statePath(node: AnyStateNode): string {
  return node.path.join('.');
}

/** The node's own name (the last path segment), or the machine id for the root. */
export function stateName(node: AnyStateNode): string {
  return node.path.at(-1) ?? node.machine.id;
}

/** Whether a node has child states (drawn as a composite). */
export function isComposite(node: AnyStateNode): boolean {
  return node.type === 'compound' || node.type === 'parallel';
}

/** The leaf a transition into `node` ends in: its initial descendant, or itself. */
export function initialLeaf(node: AnyStateNode): AnyStateNode {
  let current = node;
  while (isComposite(current)) {
    const next: AnyStateNode | undefined =
      current.type === 'compound' ? current.initial?.target[0] : childNodes(current)[0];
    if (next === undefined) break;
    current = next;
  }
  return current;
}

/** Whether `ancestor` is `node` or one of its ancestors. */
export function isAncestorOrSelf(ancestor: AnyStateNode, node: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

/** The innermost composite node that contains both ends (where Mermaid draws the edge). */
export function edgeOwner(source: AnyStateNode, target: AnyStateNode): AnyStateNode {
  for (let owner = source.parent; owner; owner = owner.parent) {
    if (isAncestorOrSelf(owner, target)) return owner;
  }
  return source.machine.root;
}

/** What runs while a state is active: `invoke id`, `entry / x`, `exit / x`. */
export function stateActivities(node: AnyStateNode): string[] {
  const named = (actions: readonly unknown[]) =>
    actions.map((action) => implementationName(action)).filter((name) => name !== undefined);
  return [
    ...node.invoke.map((invoke) => `invoke ${invoke.id}`),
    ...named(node.entry).map((name) => `entry / ${name}`),
    ...named(node.exit).map((name) => `exit / ${name}`),
  ];
}
