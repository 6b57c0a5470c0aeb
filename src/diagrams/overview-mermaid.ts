/**
 * The overview (see `buildOverview`) as a Mermaid `stateDiagram-v2`, for GitHub: each state
 * titled by its name with what it runs on a second line, composites titled by name, the teardown
 * reached by one edge per state, the root's own transitions as a note, the happy path in bold.
 * Pure.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import {
  buildOverview,
  describeRootNote,
  type MachineOverview,
  type OverviewEdge,
} from './overview.js';
import { childNodes, edgeOwner, isComposite, stateActivities, stateName } from './walk.js';

/** Mermaid id of a state node: its path joined by `_` (ids must be unique across composites). */
function mermaidId(node: AnyStateNode): string {
  return node.path.join('_');
}

/** Mermaid turns `id : text` into the box's only label, so the name leads the text. */
function stateLabel(node: AnyStateNode): string {
  return [stateName(node), ...stateActivities(node)].join('<br/>');
}

function edgeLine(edge: OverviewEdge): string {
  const separator = edge.folded ? ' · ' : ', ';
  return `${mermaidId(edge.source)} --> ${mermaidId(edge.target)} : ${edge.labels.join(separator)}`;
}

function renderRegion(overview: MachineOverview, node: AnyStateNode, indent: string): string[] {
  const lines: string[] = [];
  const initial = node.type === 'compound' ? node.initial?.target[0] : undefined;
  if (initial !== undefined) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
  for (const child of childNodes(node)) {
    const id = mermaidId(child);
    if (isComposite(child)) {
      const label = stateLabel(child);
      lines.push(`${indent}state ${label === id ? id : `"${label}" as ${id}`} {`);
      lines.push(...renderRegion(overview, child, `${indent}  `));
      lines.push(`${indent}}`);
    } else if (stateLabel(child) !== id) {
      lines.push(`${indent}${id} : ${stateLabel(child)}`);
    } else {
      lines.push(`${indent}${id}`);
    }
    if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
  }
  for (const edge of overview.edges) {
    if (edgeOwner(edge.source, edge.target) === node) lines.push(`${indent}${edgeLine(edge)}`);
  }
  return lines;
}

/**
 * The machine's overview as Mermaid: every state by name, every transition between states (one
 * label per pair, events and guards only), one edge per state into the teardown state labelled
 * by outcome kinds (`ok · 401 · timeout`), the root's transitions as a note on their target.
 */
export function toOverviewMermaid(machine: AnyStateMachine): string {
  const overview = buildOverview(machine);
  const lines = [
    'stateDiagram-v2',
    '  direction TB',
    '  classDef spine stroke-width:3px,font-weight:bold',
    ...renderRegion(overview, machine.root, '  '),
  ];
  const anchor = overview.teardown ?? overview.states[0];
  if (anchor !== undefined) {
    for (const note of overview.notes) {
      // The one-line `note … : text` form stops at a second colon; the block form does not.
      lines.push(
        `  note right of ${mermaidId(anchor)}`,
        `    ${describeRootNote(note)}`,
        '  end note',
      );
    }
  }
  if (overview.spine.length > 0) {
    lines.push(`  class ${overview.spine.map(mermaidId).join(',')} spine`);
  }
  return `${lines.join('\n')}\n`;
}
