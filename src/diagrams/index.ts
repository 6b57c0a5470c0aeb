/**
 * `stitchkit-transport/diagrams`: drawings of any XState v5 machine definition, the generators
 * behind `visualizations/`. The overview (Graphviz DOT or Mermaid) names every state and draws the
 * happy path; the transition table lists every transition; the full Mermaid chart and the Stately
 * source are for tools. Pure: each output depends only on the definition.
 */
export { toMermaid } from './mermaid.js';
export { OUTCOME_KINDS, teardownState } from './outcomes.js';
export { toOverviewDot } from './overview-dot.js';
export { toOverviewMermaid } from './overview-mermaid.js';
export { toStatelySource } from './stately.js';
export { countTransitions, toTransitionTable } from './table.js';
