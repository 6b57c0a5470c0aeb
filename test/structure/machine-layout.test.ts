/**
 * Every machine has the same file roles (docs/architecture.md, "Machine file roles"): a folder
 * `src/machines/<m>/` with the chart in `<m>.machine.ts`, guards in `<m>.guards.ts` as
 * `<camelM>Guards`, actors behind `make<PascalM>Actors` in `<m>.actors.ts`, `<m>.policy.ts` and
 * `<m>.types.ts` beside them, a `<m>.<region>.ts` for each top-level state written apart, and the
 * helpers named below. The root of `src/machines/` holds the shared kit and nothing else.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { MACHINE_REGISTRY } from '../../src/machines/registry.js';

const MACHINES_DIR = resolve(import.meta.dirname, '../../src/machines');
const ROLES = ['actors', 'guards', 'machine', 'policy', 'types'] as const;

/** The shared kit at the root of `src/machines/`. */
const KIT = [
  'bytes-read.ts',
  'registry.ts',
  'connection-outcomes.ts',
  'credentials.ts',
  'deadline.ts',
  'index.ts',
  'observe.ts',
  'run-machine.ts',
  'secret-value.ts',
];

/** Files of one machine that are neither a role nor a region, each with its reason. */
const HELPERS: Readonly<Record<string, readonly string[]>> = {
  // The glossary (what two parts of the chart share); what the run sends; the two long-lived
  // SSE streams; what the stream actors answer the server.
  // One HTTP exchange, which the task machine's requests share.
  'mcp-operation': ['edges', 'exchange', 'messages', 'streams', 'server-requests'],
  // The glossary: the edge fragments, delays and actions its request states share.
  'mcp-task': ['edges'],
  listen: ['streams', 'sessions'],
  // The error the machine's output carries when no state was ever seen.
  wait: ['timeout-error'],
};

/** What the checker sees: the root's entries, and each folder's files. */
interface MachinesTree {
  readonly rootFiles: readonly string[];
  readonly folders: Readonly<Record<string, readonly string[]>>;
}

function readTree(dir: string): MachinesTree {
  const entries = readdirSync(dir, { withFileTypes: true });
  return {
    rootFiles: entries.filter((entry) => entry.isFile()).map((entry) => entry.name),
    folders: Object.fromEntries(
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => [entry.name, readdirSync(join(dir, entry.name))]),
    ),
  };
}

/** The top-level states of a chart, the only names a region file may have. */
function topLevelStates(machine: AnyStateMachine): string[] {
  return Object.keys(machine.root.states);
}

/** Every file or folder that breaks the layout, named; empty when the tree follows it. */
function layoutViolations(
  tree: MachinesTree,
  registry: readonly { readonly name: string; readonly machine: AnyStateMachine }[],
): string[] {
  const violations: string[] = [];
  for (const file of tree.rootFiles) {
    if (!KIT.includes(file)) violations.push(`${file}: not a kit file`);
  }
  const names = new Set(registry.map((entry) => entry.name));
  for (const folder of Object.keys(tree.folders)) {
    if (!names.has(folder)) violations.push(`${folder}/: not a registered machine`);
  }
  for (const { name, machine } of registry) {
    const files = tree.folders[name];
    if (files === undefined) {
      violations.push(`${name}/: missing`);
      continue;
    }
    const parts = new Set<string>();
    for (const file of files) {
      const part =
        file.startsWith(`${name}.`) && file.endsWith('.ts') ? file.slice(name.length + 1, -3) : '';
      const allowed =
        (ROLES as readonly string[]).includes(part) ||
        topLevelStates(machine).includes(part) ||
        (HELPERS[name] ?? []).includes(part);
      if (allowed) parts.add(part);
      else violations.push(`${name}/${file}: not a role, region or named helper of ${name}`);
    }
    for (const role of ROLES) {
      if (!parts.has(role)) violations.push(`${name}/${name}.${role}.ts: missing`);
    }
  }
  return violations;
}

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase());
}

function roleFile(name: string, role: string): string {
  return join(MACHINES_DIR, name, `${name}.${role}.ts`);
}

describe.each(MACHINE_REGISTRY.map((entry) => entry.name))('the %s machine', (name) => {
  it('exports its guards object and its actor factory by the conventional names', async () => {
    const camel = pascal(name).replace(/^./, (first) => first.toLowerCase());
    const guards = (await import(roleFile(name, 'guards'))) as Record<string, unknown>;
    const actors = (await import(roleFile(name, 'actors'))) as Record<string, unknown>;
    expect(typeof guards[`${camel}Guards`]).toBe('object');
    expect(typeof actors[`make${pascal(name)}Actors`]).toBe('function');
  });

  it('exports its setup by the conventional name', async () => {
    const camel = pascal(name).replace(/^./, (first) => first.toLowerCase());
    const chart = (await import(roleFile(name, 'machine'))) as Record<string, unknown>;
    expect(typeof chart[`${camel}Setup`]).toBe('object');
  });

  it('registers exactly the guards its guards file exports', async () => {
    const camel = pascal(name).replace(/^./, (first) => first.toLowerCase());
    const guards = (await import(roleFile(name, 'guards'))) as Record<
      string,
      Record<string, unknown>
    >;
    const entry = MACHINE_REGISTRY.find((candidate) => candidate.name === name);
    const registered = Object.keys(
      (entry?.machine.implementations.guards ?? {}) as Record<string, unknown>,
    ).sort();
    expect(registered).toEqual(Object.keys(guards[`${camel}Guards`] ?? {}).sort());
  });
});

describe('src/machines', () => {
  const tree = readTree(MACHINES_DIR);

  it('holds only the kit at its root and one folder per registered machine, by role and region', () => {
    expect(layoutViolations(tree, MACHINE_REGISTRY)).toEqual([]);
  });

  it('names every planted stray: a file at the root, a file or folder no machine owns, a missing role', () => {
    const planted: MachinesTree = {
      rootFiles: [...tree.rootFiles, 'diagram-x.ts'],
      folders: {
        ...tree.folders,
        'mcp-operation': [
          ...(tree.folders['mcp-operation'] ?? []),
          'mcp-legacy.ts',
          'mcp-operation.sessions.ts',
        ],
        wait: (tree.folders.wait ?? []).filter((file) => file !== 'wait.policy.ts'),
        stray: ['stray.machine.ts'],
      },
    };
    expect(layoutViolations(planted, MACHINE_REGISTRY).sort()).toEqual([
      'diagram-x.ts: not a kit file',
      'mcp-operation/mcp-legacy.ts: not a role, region or named helper of mcp-operation',
      'mcp-operation/mcp-operation.sessions.ts: not a role, region or named helper of mcp-operation',
      'stray/: not a registered machine',
      'wait/wait.policy.ts: missing',
    ]);
  });
});
