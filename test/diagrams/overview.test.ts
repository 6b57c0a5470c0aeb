/**
 * The overview diagrams and the transition table, checked against the machine definitions: every
 * state named, no pseudo-state drawn as a state, one edge per state into the teardown state, every
 * transition listed exactly once in try order (the SVG: `diagram-svg.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import {
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  setup,
} from 'xstate';
import {
  isFailure,
  OUTCOME_KINDS,
  outcomeKind,
  teardownState,
} from '../../src/diagrams/outcomes.js';
import { buildOverview } from '../../src/diagrams/overview.js';
import { toOverviewDot } from '../../src/diagrams/overview-dot.js';
import { toOverviewMermaid } from '../../src/diagrams/overview-mermaid.js';
import { ROOT_ROW_NAME, toTransitionTable } from '../../src/diagrams/table.js';
import { describeEventType } from '../../src/diagrams/walk.js';
import { MACHINE_REGISTRY } from '../../src/machines/registry.js';

// The definition, read here without the walker under test.
function nodesBelow(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>).flatMap((child) => [
    child,
    ...nodesBelow(child),
  ]);
}
function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}
/** A named implementation; XState's own actions (the timers behind `after`) have none. */
function nameOf(reference: unknown): string | undefined {
  if (typeof reference === 'string') return reference;
  const type = (reference as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' && !type.startsWith('xstate.') ? type : undefined;
}
function activitiesOf(node: AnyStateNode): string[] {
  const named = (actions: readonly unknown[]) => actions.map(nameOf).filter((n) => n !== undefined);
  return [
    ...node.invoke.map((invoke) => `invoke ${invoke.id}`),
    ...named(node.entry).map((name) => `entry / ${name}`),
    ...named(node.exit).map((name) => `exit / ${name}`),
  ];
}
const mermaidId = (node: AnyStateNode) => node.path.join('_');
const dotId = (node: AnyStateNode) => node.path.join('.');

/** Mermaid state id -> its label, from `id : label`, `state "label" as id {`, `state id {`, `id`. */
function mermaidLabels(text: string): Map<string, string> {
  const labels = new Map<string, string>();
  for (const raw of text.split('\n').slice(1)) {
    const line = raw.trim();
    if (line.includes('-->') || /^(direction|classDef|class|note|end note)\b/.test(line)) continue;
    const aliased = /^state "(.+)" as (\w+) \{$/.exec(line);
    const composite = /^state (\w+) \{$/.exec(line);
    const described = /^(\w+) : (.+)$/.exec(line);
    if (aliased) labels.set(aliased[2] ?? '', aliased[1] ?? '');
    else if (composite) labels.set(composite[1] ?? '', composite[1] ?? '');
    else if (described) labels.set(described[1] ?? '', described[2] ?? '');
    else if (/^\w+$/.test(line)) labels.set(line, line);
  }
  return labels;
}

function mermaidEdges(text: string): { from: string; to: string; label: string }[] {
  return [...text.matchAll(/^\s*(\S+) --> (\S+)(?: : (.*))?$/gm)].map((match) => ({
    from: match[1] ?? '',
    to: match[2] ?? '',
    label: match[3] ?? '',
  }));
}

const machines = MACHINE_REGISTRY.map((entry) => [entry.name, entry.machine] as const);

describe.each(machines)('the %s overview', (_, machine) => {
  const states = nodesBelow(machine.root);
  const teardown = teardownState(machine);
  const mermaid = toOverviewMermaid(machine);
  const dot = toOverviewDot(machine);

  it('titles every state of the definition by its name, what it runs on the next lines', () => {
    const labels = mermaidLabels(mermaid);
    expect([...labels.keys()].sort()).toEqual(states.map(mermaidId).sort());
    for (const node of states) {
      expect(labels.get(mermaidId(node))?.split('<br/>')).toEqual([
        node.key,
        ...activitiesOf(node),
      ]);
      const title = `<B>${node.key}</B>`;
      expect(dot).toContain(
        Object.keys(node.states).length > 0
          ? `label=<${title}`
          : `"${dotId(node)}" [label=<${title}`,
      );
    }
  });

  it('draws no anyState node: only states, the initial point and failure relay points', () => {
    expect(mermaid).not.toContain('anyState');
    const ids = new Set(states.map(mermaidId));
    for (const edge of mermaidEdges(mermaid)) {
      for (const end of [edge.from, edge.to]) expect(end === '[*]' || ids.has(end)).toBe(true);
    }
    const declared = [...dot.matchAll(/^\s*"([^"]+)" \[(.*)\];?$/gm)];
    const paths = new Set(states.map(dotId));
    for (const [, id, attributes] of declared) {
      if (!paths.has(id ?? '')) expect(attributes).toContain('shape="point"');
    }
    expect(dot).not.toContain('anyState');
  });

  it('has one edge from each state with transitions into the teardown state, and no more', () => {
    expect(teardown).toBeDefined();
    const target = teardown as AnyStateNode;
    const into = mermaidEdges(mermaid).filter((edge) => edge.to === mermaidId(target));
    const expected = states
      .filter((node) => node !== target)
      .filter((node) => transitionsOf(node).some((t) => t.target?.includes(target)));
    expect(into.map((edge) => edge.from)).toEqual(expected.map(mermaidId));
    for (const node of expected) {
      const edge = into.find((candidate) => candidate.from === mermaidId(node));
      // A step after the outcome was decided (an attempt still tearing down) reads by its event.
      const kinds = transitionsOf(node)
        .filter((t) => t.target?.includes(target))
        .map((t) => outcomeKind(t) ?? describeEventType(node, t.eventType));
      // `ok` first, then each failure kind once, in the order XState tries them.
      const ordered = [...new Set([...kinds.filter((k) => k === 'ok'), ...kinds])];
      expect(edge?.label).toBe(ordered.join(' · '));
    }
    // In DOT each state reaches the teardown once: directly, or through its own relay point.
    const heads = [...dot.matchAll(/^\s*"([^"]+)" -> "([^"]+)"(.*)$/gm)].filter(
      (match) => match[2] === dotId(initialLeafOf(target)),
    );
    // A group's edge leaves from its cluster (drawn from its first leaf), so it is the group's.
    const origins = heads.map(
      (match) =>
        /ltail="cluster_([^"]+)"/.exec(match[3] ?? '')?.[1] ??
        (match[1] ?? '').replace(/:failed$/, ''),
    );
    expect(new Set(origins).size).toBe(origins.length);
  });

  it('writes the root’s own transitions once, as a note and in the caption', () => {
    for (const transition of transitionsOf(machine.root)) {
      const event = describeEventType(machine.root, transition.eventType);
      const notes = mermaid.split('\n').filter((line) => line.includes(`From any state: ${event}`));
      expect(notes).toHaveLength(1);
      expect(dot).toContain(`From any state: ${event}`);
    }
  });

  it('has a happy path from the initial state through the teardown to a final state', () => {
    const { spine } = buildOverview(machine);
    expect(spine[0]).toBe(initialLeafOf(machine.root));
    expect(spine.at(-1)?.type).toBe('final');
    expect(spine).toContain(initialLeafOf(teardown as AnyStateNode));
    for (const [index, leaf] of spine.slice(0, -1).entries()) {
      const next = spine[index + 1];
      const applicable = ancestorsOrSelf(leaf).flatMap(transitionsOf);
      const step = applicable.find(
        (t) => !isFailure(t) && (t.target ?? []).some((target) => initialLeafOf(target) === next),
      );
      expect(step, `${dotId(leaf)} -> ${next && dotId(next)}`).toBeDefined();
    }
    const classes = mermaid.split('\n').find((line) => line.trim().startsWith('class '));
    expect(classes?.trim()).toBe(`class ${spine.map(mermaidId).join(',')} spine`);
  });
});

function initialLeafOf(node: AnyStateNode): AnyStateNode {
  const initial = node.initial?.target[0] as AnyStateNode | undefined;
  return initial === undefined ? node : initialLeafOf(initial);
}
function ancestorsOrSelf(node: AnyStateNode): AnyStateNode[] {
  return node.parent === undefined ? [node] : [node, ...ancestorsOrSelf(node.parent)];
}

describe.each(machines)('the %s transition table', (_, machine) => {
  const table = toTransitionTable(machine);
  const nodes = [machine.root, ...nodesBelow(machine.root)];
  const sections = new Map(
    table
      .split(/^## /m)
      .slice(1)
      .map((section) => {
        const [heading = '', ...body] = section.split('\n');
        const rows = body.filter((line) => /^\| \d+ \|/.test(line));
        return [heading.replace(/`/g, ''), rows] as const;
      }),
  );

  it('has a section per state node, root first', () => {
    expect([...sections.keys()]).toEqual(
      nodes.map((node) => (node === machine.root ? ROOT_ROW_NAME : dotId(node))),
    );
  });

  it('lists every transition of the definition exactly once, in the order XState tries them', () => {
    const total = nodes.reduce((sum, node) => sum + transitionsOf(node).length, 0);
    expect([...sections.values()].flat()).toHaveLength(total);
    expect(table).toContain(`${total} transitions in ${nodes.length} state nodes`);
    for (const node of nodes) {
      const rows = sections.get(node === machine.root ? ROOT_ROW_NAME : dotId(node)) ?? [];
      const tried = new Map<string, number>();
      expect(
        rows.map((row) => row.split(' | ').slice(0, 5).join(' | ')),
        dotId(node),
      ).toEqual(
        transitionsOf(node).map((t) => {
          const order = (tried.get(t.eventType) ?? 0) + 1;
          tried.set(t.eventType, order);
          const guard = t.guard === undefined ? '—' : `\`${nameOf(t.guard)}\``;
          const actions = t.actions.map(nameOf).filter((name) => name !== undefined);
          const targets = (t.target ?? []).map((target) => `\`${dotId(target)}\``).join(', ');
          return [
            `| ${order}`,
            `\`${describeEventType(node, t.eventType)}\``,
            guard,
            actions.length === 0 ? '—' : actions.map((name) => `\`${name}\``).join(', '),
            targets === '' ? '— (stays)' : `${targets}${t.reenter ? ' (re-entered)' : ''}`,
          ].join(' | ');
        }),
      );
    }
  });
});

describe('outcome kinds and the teardown state', () => {
  const machine: AnyStateMachine = setup({
    guards: { isSizeFailure: () => false, isDone: () => true },
    actions: { failWithError: () => {}, failOddly: () => {}, succeed: () => {}, note: () => {} },
  }).createMachine({
    id: 'kinds',
    initial: 'working',
    on: { CANCEL: { target: '.closed', actions: 'failOddly' } },
    states: {
      working: {
        on: {
          STOP: [
            { guard: 'isSizeFailure', target: 'closed', actions: 'failWithError' },
            { guard: 'isDone', target: 'closed', actions: 'succeed' },
            { target: 'closed', actions: 'failWithError' },
          ],
          ODD: { target: 'closed', actions: ['note', 'failOddly'] },
          NEXT: 'other',
        },
      },
      other: { on: { BACK: 'working' } },
      closed: { type: 'final' },
    },
  });

  it('reads a listed guard first, then listed actions, then an unlisted fail… action by name', () => {
    const [size, ok, error] = machine.root.states.working?.transitions.get('STOP') ?? [];
    const [odd] = machine.root.states.working?.transitions.get('ODD') ?? [];
    expect([size, ok, error, odd].map((t) => t && outcomeKind(t))).toEqual([
      OUTCOME_KINDS.isSizeFailure,
      'ok',
      OUTCOME_KINDS.failWithError,
      'failOddly',
    ]);
    expect([size, ok, error, odd].map((t) => t && isFailure(t))).toEqual([true, false, true, true]);
  });

  it('takes the target most failures run into as the teardown, and folds into it', () => {
    expect(teardownState(machine)?.key).toBe('closed');
    const edges = mermaidEdges(toOverviewMermaid(machine));
    expect(edges.filter((edge) => edge.to === 'closed')).toEqual([
      { from: 'working', to: 'closed', label: 'ok · size · error · failOddly' },
    ]);
    expect(edges).toContainEqual({ from: 'working', to: 'other', label: 'NEXT' });
  });
});
