/**
 * The full Mermaid `stateDiagram-v2` of a machine definition: every state node, every transition.
 * Pure: no I/O; the output depends only on the definition, so regenerating it is deterministic.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import {
  allTransitions,
  childNodes,
  describeEventType,
  edgeOwner,
  implementationName,
} from './walk.js';

/** Where the root's own transitions start: they apply in every state that does not override them. */
const ANY_STATE = 'anyState';

/** Mermaid id of a state node: its path joined by `_`; the root's own transitions start at `anyState`. */
function mermaidId(node: AnyStateNode): string {
  return node.path.length === 0 ? ANY_STATE : node.path.join('_');
}

function transitionLabel(node: AnyStateNode, transition: AnyTransitionDefinition): string {
  let label = describeEventType(node, transition.eventType);
  if (transition.guard !== undefined) {
    label += ` [${implementationName(transition.guard) ?? 'guard'}]`;
  }
  const actions = transition.actions
    .map((action) => implementationName(action))
    .filter((name): name is string => name !== undefined);
  if (actions.length > 0) label += ` / ${actions.join(', ')}`;
  return label;
}

function collectEdges(node: AnyStateNode, edges: Map<AnyStateNode, string[]>): void {
  for (const transition of allTransitions(node)) {
    const targets = transition.target ?? [node];
    for (const target of targets) {
      const owner = edgeOwner(node, target);
      const line = `${mermaidId(node)} --> ${mermaidId(target)} : ${transitionLabel(node, transition)}`;
      edges.set(owner, [...(edges.get(owner) ?? []), line]);
    }
  }
  for (const child of childNodes(node)) collectEdges(child, edges);
}

function stateNotes(node: AnyStateNode): string[] {
  const id = mermaidId(node);
  const notes: string[] = [];
  for (const action of node.entry) {
    const name = implementationName(action);
    if (name !== undefined) notes.push(`${id} : entry / ${name}`);
  }
  for (const action of node.exit) {
    const name = implementationName(action);
    if (name !== undefined) notes.push(`${id} : exit / ${name}`);
  }
  for (const invoke of node.invoke) {
    const src =
      typeof invoke.src === 'string' ? invoke.src : (implementationName(invoke.src) ?? '');
    notes.push(`${id} : invoke ${invoke.id}${src === '' || src === invoke.id ? '' : ` (${src})`}`);
  }
  return notes;
}

function renderRegion(
  node: AnyStateNode,
  edges: Map<AnyStateNode, string[]>,
  indent: string,
): string[] {
  const lines: string[] = [];
  const children = childNodes(node);
  const initial = node.type === 'compound' ? node.initial?.target[0] : undefined;
  if (initial !== undefined) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
  for (const child of children) {
    if (child.type === 'compound' || child.type === 'parallel') {
      lines.push(`${indent}state ${mermaidId(child)} {`);
      lines.push(...renderRegion(child, edges, `${indent}  `));
      lines.push(`${indent}}`);
    }
    lines.push(...stateNotes(child).map((note) => `${indent}${note}`));
    if (child.type === 'final') lines.push(`${indent}${mermaidId(child)} --> [*]`);
  }
  lines.push(...(edges.get(node) ?? []).map((edge) => `${indent}${edge}`));
  return lines;
}

/**
 * The machine as a Mermaid `stateDiagram-v2`: nested states as composite states; edges labelled
 * `after DELAY_NAME`, `done(invokeId)`, `error(invokeId)`, `always`, or the event type, followed
 * by `[guardName]` and `/ actionNames`; entry/exit actions and invokes as `entry / x`,
 * `exit / x` and `invoke id (src)` state descriptions.
 */
export function toMermaid(machine: AnyStateMachine): string {
  const edges = new Map<AnyStateNode, string[]>();
  collectEdges(machine.root, edges);
  const root = machine.root;
  const lines = ['stateDiagram-v2', ...stateNotes(root).map((note) => `  ${note}`)];
  if (allTransitions(root).length > 0) lines.push(`  ${ANY_STATE} : any state (unless overridden)`);
  lines.push(...renderRegion(root, edges, '  '));
  return `${lines.join('\n')}\n`;
}
