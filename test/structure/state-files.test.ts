/**
 * Any state of `mcpOperation` reads in at most four files (docs/architecture.md, "Where a state
 * reads"): the file that writes its config (its wire region, or the machine file for the lifecycle
 * states), the glossary (`mcp-operation.edges.ts`), the guards and the actors. Counted from the
 * chart itself: every guard, action, actor and delay a state names is looked up in the file that
 * defines it. The kit at the root of `src/machines/` (the failures every machine decides alike,
 * the credentials step) is the dialect of every chart and is not counted.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { connectionFailureActions } from '../../src/machines/connection-outcomes.js';
import { makeMcpOperationActors } from '../../src/machines/mcp-operation/mcp-operation.actors.js';
import {
  mcpOperationDelays,
  sharedActions,
} from '../../src/machines/mcp-operation/mcp-operation.edges.js';
import { mcpOperationGuards } from '../../src/machines/mcp-operation/mcp-operation.guards.js';
import { mcpOperationMachine } from '../../src/machines/mcp-operation/mcp-operation.machine.js';
import { sessionActions } from '../../src/machines/mcp-operation/mcp-operation.session.js';
import { sseActions } from '../../src/machines/mcp-operation/mcp-operation.sse.js';
import { statelessActions } from '../../src/machines/mcp-operation/mcp-operation.stateless.js';

const MACHINE = 'machine.ts';
const GLOSSARY = 'edges.ts';
const KIT = 'kit';
const REGIONS: Readonly<Record<string, string>> = {
  stateless: 'stateless.ts',
  session: 'session.ts',
  sse: 'sse.ts',
};

/** Which file defines each named implementation, by kind. */
interface Homes {
  readonly action: ReadonlyMap<string, string>;
  readonly guard: ReadonlyMap<string, string>;
  readonly actor: ReadonlyMap<string, string>;
  readonly delay: ReadonlyMap<string, string>;
}

function homesOf(): Homes {
  const action = new Map<string, string>();
  const put = (names: object, file: string) => {
    for (const name of Object.keys(names)) action.set(name, file);
  };
  put(
    connectionFailureActions(() => ({ connectionName: 'c', phase: 'call' }) as never),
    KIT,
  );
  put(sharedActions, GLOSSARY);
  put(statelessActions, REGIONS.stateless ?? '');
  put(sessionActions, REGIONS.session ?? '');
  put(sseActions, REGIONS.sse ?? '');
  // What the setup holds beyond the spread maps is written in the machine file itself.
  for (const name of Object.keys(mcpOperationMachine.implementations.actions)) {
    if (!action.has(name)) action.set(name, MACHINE);
  }
  const all = (names: object, file: string) =>
    new Map(Object.keys(names).map((name) => [name, file]));
  return {
    action,
    guard: all(mcpOperationGuards, 'guards.ts'),
    actor: all(makeMcpOperationActors(), 'actors.ts'),
    delay: all(mcpOperationDelays, GLOSSARY),
  };
}

type Named = { readonly kind: keyof Homes; readonly name: string };

/** The names a reference to an action or guard carries (a string, or `{ type }`). */
function namesOf(kind: 'action' | 'guard', value: unknown): Named[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.flatMap((item: unknown) => {
    const name =
      typeof item === 'string'
        ? item
        : typeof item === 'object' && item !== null && 'type' in item
          ? String((item as { type: unknown }).type)
          : undefined;
    // XState's own actions (the raise and cancel behind `after`) are not ours to read.
    return name === undefined || name.startsWith('xstate.') ? [] : [{ kind, name }];
  });
}

/** Every guard, action, actor and delay a state node names in its own config. */
function referencesOf(node: AnyStateNode): Named[] {
  const transitions = [...node.transitions.values()].flat().concat(node.always ?? []);
  return [
    ...transitions.flatMap((t) => [...namesOf('guard', t.guard), ...namesOf('action', t.actions)]),
    ...namesOf('action', node.entry),
    ...namesOf('action', node.exit),
    ...node.invoke.map((invoke) => ({ kind: 'actor' as const, name: String(invoke.src) })),
    ...node.after.flatMap((after) =>
      typeof after.delay === 'string' ? [{ kind: 'delay' as const, name: after.delay }] : [],
    ),
  ];
}

/** The file that writes a state's config: its wire region's, else the machine file. */
function configFileOf(node: AnyStateNode): string {
  return REGIONS[node.path[0] ?? ''] ?? MACHINE;
}

/** The files a state reads in, kit left out, and the names no file was found for. */
function filesOf(node: AnyStateNode, homes: Homes, extra: readonly Named[] = []) {
  const files = new Set([configFileOf(node), GLOSSARY]);
  const unknown: string[] = [];
  for (const { kind, name } of [...referencesOf(node), ...extra]) {
    const file = homes[kind].get(name);
    if (file === undefined) unknown.push(`${kind} ${name}`);
    else if (file !== KIT) files.add(file);
  }
  return { files: [...files].sort(), unknown };
}

function statesOf(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states).flatMap((child) => [child, ...statesOf(child)]);
}

describe('where a state of mcpOperation reads', () => {
  const homes = homesOf();
  const states = statesOf(mcpOperationMachine.root);
  const table = Object.fromEntries(
    states.map((node) => [node.path.join('.'), filesOf(node, homes)] as const),
  );

  it('finds the home of every name a state uses', () => {
    expect(Object.entries(table).filter(([, { unknown }]) => unknown.length > 0)).toEqual([]);
  });

  it('reads every state in at most four files: its region (or the machine file), the glossary, the guards, the actors', () => {
    const over = Object.entries(table).filter(([, { files }]) => files.length > 4);
    expect(over).toEqual([]);
    // Beside the glossary, which every state reads: the files of each state, in chart order.
    expect(
      Object.entries(table).map(([path, { files }]) => [
        path,
        files.filter((file) => file !== GLOSSARY).join(' '),
      ]),
    ).toEqual([
      ['starting', 'guards.ts machine.ts'],
      ['credentials', 'actors.ts guards.ts machine.ts'],
      ['session', 'guards.ts session.ts'],
      ['session.initializing', 'actors.ts guards.ts session.ts'],
      ['session.reinitializing', 'actors.ts guards.ts session.ts'],
      ['session.notifying', 'actors.ts guards.ts session.ts'],
      ['session.openingCallerStream', 'guards.ts session.ts'],
      ['session.requesting', 'actors.ts guards.ts session.ts'],
      ['session.requesting.waiting', 'guards.ts session.ts'],
      ['session.awaitingResume', 'session.ts'],
      ['session.resuming', 'actors.ts guards.ts session.ts'],
      ['session.resuming.waiting', 'guards.ts session.ts'],
      ['sse', 'actors.ts guards.ts sse.ts'],
      ['sse.connecting', 'guards.ts sse.ts'],
      ['sse.endpointCheck', 'guards.ts sse.ts'],
      ['sse.initializing', 'actors.ts guards.ts sse.ts'],
      ['sse.initializeCheck', 'guards.ts sse.ts'],
      ['sse.notifying', 'actors.ts guards.ts sse.ts'],
      ['sse.requesting', 'actors.ts guards.ts sse.ts'],
      ['sse.requesting.waiting', 'guards.ts sse.ts'],
      ['sse.responseCheck', 'guards.ts sse.ts'],
      ['stateless', 'guards.ts stateless.ts'],
      ['stateless.requesting', 'actors.ts guards.ts stateless.ts'],
      ['stateless.requesting.waiting', 'guards.ts stateless.ts'],
      ['stateless.answeringInput', 'actors.ts stateless.ts'],
      // The task's own states read in the `mcpTask` machine's files.
      ['task', 'actors.ts machine.ts'],
      ['closing', 'guards.ts machine.ts'],
      ['cancellingRequest', 'actors.ts guards.ts machine.ts'],
      ['endingSession', 'actors.ts machine.ts'],
      ['closed', 'machine.ts'],
    ]);
  });

  it('reads the default call of a stateless connection in its region, the glossary, the guards and the actors', () => {
    expect(table['stateless.requesting']?.files).toEqual([
      'actors.ts',
      'edges.ts',
      'guards.ts',
      'stateless.ts',
    ]);
  });

  it('counts a fifth file when a region state takes an action written in the machine file', () => {
    const requesting = states.find((node) => node.path.join('.') === 'stateless.requesting');
    if (requesting === undefined) throw new Error('stateless.requesting is gone');
    const planted = filesOf(requesting, homes, [{ kind: 'action', name: 'teardown' }]);
    expect(planted.files).toHaveLength(5);
    expect(planted.files).toContain(MACHINE);
  });
});
