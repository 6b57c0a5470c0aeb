/**
 * The complete transition table of a machine, as Markdown: per state, every event, guard,
 * actions and target in the order XState tries them, the spec a reviewer checks line by line.
 * Pure: built from the definition alone.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { outcomeKind, teardownState } from './outcomes.js';
import {
  actionNames,
  allTransitions,
  describeEventType,
  guardName,
  implementationName,
  stateNodes,
  statePath,
} from './walk.js';

/** The heading name of the machine root, whose transitions apply in every state. */
export const ROOT_ROW_NAME = '(root)';

const HEADER = ['| # | Event | Guard | Actions | Target | Outcome |', '|---|---|---|---|---|---|'];

function code(text: string): string {
  return `\`${text}\``;
}

function tableName(node: AnyStateNode): string {
  return node.path.length === 0 ? ROOT_ROW_NAME : statePath(node);
}

function targetCell(transition: AnyTransitionDefinition): string {
  const targets = transition.target ?? [];
  if (targets.length === 0) return '— (stays)';
  const names = targets.map((target) => code(statePath(target))).join(', ');
  return transition.reenter ? `${names} (re-entered)` : names;
}

function actionsCell(transition: AnyTransitionDefinition): string {
  const names = actionNames(transition);
  const inline = transition.actions.length - names.length;
  const cells = [...names.map(code), ...(inline > 0 ? [`${inline} inline`] : [])];
  return cells.length === 0 ? '—' : cells.join(', ');
}

/** The rows of one state: an event's rows together, numbered in the order XState tries them. */
function rows(node: AnyStateNode, teardown: AnyStateNode | undefined): string[] {
  const tried = new Map<string, number>();
  return allTransitions(node).map((transition) => {
    const order = (tried.get(transition.eventType) ?? 0) + 1;
    tried.set(transition.eventType, order);
    const guard = guardName(transition);
    const kind = transition.target?.[0] === teardown ? outcomeKind(transition) : undefined;
    return `| ${order} | ${code(describeEventType(node, transition.eventType))} | ${guard === undefined ? '—' : code(guard)} | ${actionsCell(transition)} | ${targetCell(transition)} | ${kind ?? ''} |`;
  });
}

function namedActions(actions: readonly unknown[]): string[] {
  return actions.map(implementationName).filter((name): name is string => name !== undefined);
}

/** What runs in the state, and which ancestors are tried after it. */
function stateNotes(node: AnyStateNode): string[] {
  const runs = [
    ...node.invoke.map((invoke) => {
      const src = typeof invoke.src === 'string' ? invoke.src : undefined;
      return `invoke ${code(invoke.id)}${src === undefined || src === invoke.id ? '' : ` (src ${code(src)})`}`;
    }),
    ...namedActions(node.entry).map((name) => `entry ${code(name)}`),
    ...namedActions(node.exit).map((name) => `exit ${code(name)}`),
  ];
  const then: string[] = [];
  for (let parent = node.parent; parent; parent = parent.parent) {
    const events = [
      ...new Set(
        allTransitions(parent).map((t) => describeEventType(parent as AnyStateNode, t.eventType)),
      ),
    ];
    if (events.length > 0) then.push(`${code(tableName(parent))} (${events.map(code).join(', ')})`);
  }
  const notes: string[] = [];
  if (node.type === 'final') notes.push('Final state.');
  if (runs.length > 0) notes.push(`Runs: ${runs.join(', ')}.`);
  if (then.length > 0)
    notes.push(`An event none of these rows takes is tried next in ${then.join(', then ')}.`);
  return notes;
}

/** How many transitions the table lists: every state's events, delays, invoke results and `always`. */
export function countTransitions(machine: AnyStateMachine): number {
  return [machine.root, ...stateNodes(machine)].reduce(
    (sum, node) => sum + allTransitions(node).length,
    0,
  );
}

/**
 * The machine's transition table as Markdown: a section per state node (the root first, then
 * document order) with one row per transition, `#` the order XState tries an event's rows in.
 */
export function toTransitionTable(machine: AnyStateMachine): string {
  const teardown = teardownState(machine);
  const nodes = [machine.root, ...stateNodes(machine)];
  const lines = [
    `# ${code(machine.id)} transitions`,
    '',
    'Generated from the machine definition by `npm run visualize`; do not edit by hand.',
    `${countTransitions(machine)} transitions in ${nodes.length} state nodes (the root included).`,
    '',
    'On an event XState tries the rows of the active leaf state first, then its parent’s, up to',
    `the root’s ${code(ROOT_ROW_NAME)}; within a state, an event’s rows in \`#\` order, taking the first`,
    'whose guard passes (or that has none). `always` rows are tried the same way after every step.',
    'Target `— (stays)` keeps the state (no exit, no entry); `(re-entered)` exits and enters again.',
    teardown === undefined
      ? 'Outcome is the kind an overview edge shows; this machine has no teardown state.'
      : `Outcome is the kind the overview shows on the one edge from each state into ${code(statePath(teardown))}.`,
  ];
  for (const node of nodes) {
    lines.push('', `## ${code(tableName(node))}`, '');
    const notes = stateNotes(node);
    if (notes.length > 0) lines.push(notes.join(' '), '');
    const body = rows(node, teardown);
    lines.push(...(body.length === 0 ? ['No transitions of its own.'] : [...HEADER, ...body]));
  }
  return `${lines.join('\n')}\n`;
}
