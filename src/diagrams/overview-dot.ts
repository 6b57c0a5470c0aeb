/**
 * The overview (see `buildOverview`) as Graphviz DOT, top to bottom, for a committed SVG: the
 * happy path a straight bold spine, failures dashed red, composites as clusters, the root's own
 * transitions in the graph's caption. Pure: DOT text only; rendering happens outside `src/`.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { SUCCESS_KIND } from './outcomes.js';
import {
  buildOverview,
  describeRootNote,
  type MachineOverview,
  type OverviewEdge,
} from './overview.js';
import {
  childNodes,
  initialLeaf,
  isComposite,
  stateActivities,
  stateName,
  statePath,
} from './walk.js';

/** The widest the picture may be, in inches at 72 pt each (1,600 px read 1 pt = 1 px). */
const MAX_WIDTH_INCHES = 1600 / 72;
// Graphviz measures text by built-in metrics; Verdana's are wide, so the text also fits in its
// look-alikes (DejaVu Sans), which `scripts/visualize.ts` names as fallbacks in the SVG.
const FONT = 'Verdana';
const SPINE_COLOR = '#1d4f91';
const FAILURE_COLOR = '#b42318';
const SUCCESS_COLOR = '#067647';
const MUTED_COLOR = '#555555';

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attributes(entries: Record<string, string | number | undefined>): string {
  const parts = Object.entries(entries)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) =>
      typeof value === 'string' && value.startsWith('<')
        ? `${key}=${value}`
        : `${key}=${quote(String(value))}`,
    );
  return `[${parts.join(', ')}]`;
}

/** Name in bold, what the state runs below it in a smaller grey font. */
function stateLabel(node: AnyStateNode): string {
  const activities = stateActivities(node).map(
    (line) => `<BR/><FONT POINT-SIZE="10" COLOR="${MUTED_COLOR}">${html(line)}</FONT>`,
  );
  return `<<B>${html(stateName(node))}</B>${activities.join('')}>`;
}

function stateLines(overview: MachineOverview, node: AnyStateNode, indent: string): string[] {
  const relayed = overview.edges.some((edge) => edge.source === node && isRelayed(edge));
  const relay = relayed ? [relayLine(node, indent)] : [];
  if (isComposite(node)) {
    return [
      `${indent}subgraph ${quote(`cluster_${statePath(node)}`)} {`,
      `${indent}  graph ${attributes({ label: stateLabel(node), style: 'rounded', color: '#888888', labeljust: 'l' })}`,
      ...childNodes(node).flatMap((child) => stateLines(overview, child, `${indent}  `)),
      `${indent}}`,
      ...relay,
    ];
  }
  const onSpine = overview.spine.includes(node);
  // Same-group nodes line up in one straight column: the spine first, then each composite's lane.
  const lane = [...overview.lanes].find(([, leaves]) => leaves.includes(node))?.[0];
  return [
    `${indent}${quote(statePath(node))} ${attributes({
      label: stateLabel(node),
      peripheries: node.type === 'final' ? 2 : undefined,
      penwidth: onSpine ? 2 : undefined,
      color: onSpine ? SPINE_COLOR : undefined,
      group: onSpine ? 'spine' : lane === undefined ? undefined : statePath(lane),
    })}`,
    ...relay,
  ];
}

/**
 * Folded outcomes: `ok` green, the failure kinds red. Each colour is one text run, since Graphviz
 * places runs by its own width estimate and a browser lays out the text within a run.
 */
function foldedLabel(labels: readonly string[], composite: string | undefined): string {
  const ok = labels.filter((label) => label === SUCCESS_KIND);
  const failures = labels.filter((label) => label !== SUCCESS_KIND);
  const runs = [
    ok.length === 0 ? '' : `<FONT COLOR="${SUCCESS_COLOR}">${html(ok.join(' · '))}</FONT>`,
    failures.length === 0
      ? ''
      : `<FONT COLOR="${FAILURE_COLOR}">${ok.length === 0 ? '' : ' · '}${html(failures.join(' · '))}</FONT>`,
  ];
  // A composite's edge leaves its border, far from a name: the label says whose it is.
  const owner = composite === undefined ? '' : `${html(composite)}: `;
  return `< ${owner}${runs.join('')} >`;
}

/** Whether the edge is drawn through a relay point (see `relayId`). */
function isRelayed(edge: OverviewEdge): boolean {
  return edge.folded && !edge.spine;
}

/**
 * A folded edge bends through a tiny point just below its state, and its label sits on
 * that first short stretch: so each label stays beside its own state instead of floating among
 * the many edges that converge on the teardown.
 */
function relayId(source: AnyStateNode): string {
  return `${statePath(source)}:failed`;
}

function relayLine(source: AnyStateNode, indent: string): string {
  return `${indent}${quote(relayId(source))} ${attributes({ shape: 'point', width: 0.01, label: '', color: FAILURE_COLOR })}`;
}

function edgeLines(edge: OverviewEdge): string[] {
  // An edge from a composite leaves its cluster's border; into one, it enters at its initial leaf.
  const tail = initialLeaf(edge.source);
  const head = initialLeaf(edge.target);
  const ltail = tail === edge.source ? undefined : `cluster_${statePath(edge.source)}`;
  // The spaces keep the text off the edge it labels.
  const label = edge.folded
    ? foldedLabel(edge.labels, ltail === undefined ? undefined : stateName(edge.source))
    : `< ${edge.labels.map(html).join(' <BR/> ')} >`;
  if (isRelayed(edge)) {
    const style = edge.failure ? { style: 'dashed', color: FAILURE_COLOR } : { color: '#333333' };
    return [
      `  ${quote(statePath(tail))} -> ${quote(relayId(edge.source))} ${attributes({ label, ltail, arrowhead: 'none', weight: 1, ...style })};`,
      `  ${quote(relayId(edge.source))} -> ${quote(statePath(head))} ${attributes({ weight: 0, ...style })};`,
    ];
  }
  const style = edge.spine
    ? { penwidth: 2.5, color: SPINE_COLOR, weight: 10 }
    : { color: '#333333', weight: 1 };
  return [
    `  ${quote(statePath(tail))} -> ${quote(statePath(head))} ${attributes({ label, ltail, ...style })};`,
  ];
}

function caption(overview: MachineOverview): string {
  const lines = [
    `<B>${html(overview.id)}</B>`,
    ...overview.notes.map((note) => html(describeRootNote(note, '->'))),
    html('bold blue: the happy path; dashed red: failures, one edge per state'),
    ...(overview.lanes.size === 0
      ? []
      : [html('an edge from a framed group applies in every state inside it')]),
  ];
  return `<${lines.join('<BR/>')}>`;
}

/**
 * The machine's overview as a Graphviz `digraph` (the same walk as `toOverviewMermaid`), laid out
 * top to bottom and capped at 1,600 pt wide, with the spine kept straight by weight and `group`.
 */
export function toOverviewDot(machine: AnyStateMachine): string {
  const overview = buildOverview(machine);
  const start = overview.spine[0] ?? initialLeaf(machine.root);
  const lines = [
    `digraph ${quote(overview.id)} {`,
    `  graph ${attributes({
      rankdir: 'TB',
      compound: 'true',
      newrank: 'true',
      splines: 'polyline',
      size: `${MAX_WIDTH_INCHES.toFixed(2)},1000`,
      nodesep: 0.3,
      ranksep: 0.4,
      fontname: FONT,
      fontsize: 12,
      labelloc: 't',
      label: caption(overview),
    })};`,
    `  node ${attributes({ shape: 'box', style: 'rounded', fontname: FONT, fontsize: 13, margin: '0.15,0.06' })};`,
    `  edge ${attributes({ fontname: FONT, fontsize: 10, arrowsize: 0.7 })};`,
    `  "__start" ${attributes({ shape: 'point', width: 0.15, label: '', group: 'spine' })};`,
    ...childNodes(machine.root).flatMap((node) => stateLines(overview, node, '  ')),
    `  "__start" -> ${quote(statePath(start))} ${attributes({ penwidth: 2.5, color: SPINE_COLOR, weight: 10 })};`,
    ...overview.edges.flatMap(edgeLines),
    '}',
  ];
  return `${lines.join('\n')}\n`;
}
