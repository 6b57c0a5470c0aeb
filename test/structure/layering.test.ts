/**
 * The import direction of docs/architecture.md ("Layers and the import rule"), pinned: binding <-
 * wire <- openapi <- machines <- operations <- connections <- cli, and diagrams beside them,
 * importing only `xstate`. Inside `wire` and `binding` the rooms have an order of their own
 * (wire: core <- errors <- read <- http <- mcp, download; binding: kernel <- contract <- mounts),
 * and the layers above `binding` that sit below the contract (`wire`, `openapi`) import only its
 * kernel. A file that needs to import "upwards" belongs lower.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** Which top-level folders each folder may import from (itself always allowed). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  binding: [],
  wire: ['binding'],
  openapi: ['binding', 'wire'],
  machines: ['binding', 'wire', 'openapi'],
  operations: ['binding', 'wire', 'openapi', 'machines'],
  connections: ['binding', 'wire', 'openapi', 'machines', 'operations'],
  cli: ['binding', 'wire', 'openapi', 'machines', 'operations', 'connections'],
  diagrams: [],
  '.': ['binding', 'wire', 'openapi', 'machines', 'operations', 'connections', 'cli'],
};

/**
 * The rooms of a layer sorted by role, in tiers from the bottom: a room imports only rooms of a
 * lower tier, never one beside it or above it. The layer's `index.ts` (its public door) may
 * import every room; no other file sits outside a room.
 */
const ROOMS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  wire: [['core'], ['errors'], ['read'], ['http'], ['mcp', 'download']],
  binding: [['kernel'], ['contract'], ['mounts']],
};

/** The rooms of `binding` a layer below the tool contract may import. */
const BINDING_ROOMS_FOR: Readonly<Record<string, readonly string[]>> = {
  wire: ['kernel'],
  openapi: ['kernel'],
};

/** One relative import: the importing file and the file it names, both relative to `src/`. */
interface ImportEdge {
  readonly file: string;
  readonly target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top-level folder of a path relative to `src/` (`.` for a file at the root). */
function layerOf(path: string): string {
  const [first, ...rest] = path.split('/');
  return rest.length === 0 ? '.' : (first ?? '.');
}

/** The room of a path relative to `src/` inside a layer with rooms (`.` for the layer's own files). */
function roomOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? (parts[1] ?? '.') : '.';
}

/** Every specifier the file names: `from '…'`, a bare `import '…'` and a dynamic `import('…')`. */
function importSpecifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g)].map(
    (match) => match[1] ?? '',
  );
}

function importEdges(files: readonly string[]): ImportEdge[] {
  return files.flatMap((path) =>
    importSpecifiers(readFileSync(path, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({
        file: relative(SRC, path),
        target: relative(SRC, resolve(dirname(path), specifier)),
      })),
  );
}

/** The imports that break the layer order. */
function layerViolations(edges: readonly ImportEdge[]): string[] {
  return edges.flatMap(({ file, target }) => {
    const from = layerOf(file);
    const to = layerOf(target);
    const allowed = ALLOWED[from];
    if (allowed === undefined) return [`${file}: folder "${from}" has no layering rule`];
    return to === from || allowed.includes(to)
      ? []
      : [`${file} imports ${target} (${from} -> ${to})`];
  });
}

/** The tier of `room` in `layer`, or `undefined` for a room the order does not know. */
function tierOf(layer: string, room: string): number | undefined {
  const tier = ROOMS[layer]?.findIndex((rooms) => rooms.includes(room));
  return tier === undefined || tier < 0 ? undefined : tier;
}

/** The imports that break a room order, and the files outside every room. */
function roomViolations(edges: readonly ImportEdge[], files: readonly string[]): string[] {
  const loose = files.flatMap((file) => {
    const layer = layerOf(file);
    if (ROOMS[layer] === undefined) return [];
    const room = roomOf(file);
    if (room === '.') return file === `${layer}/index.ts` ? [] : [`${file}: outside every room`];
    return tierOf(layer, room) === undefined ? [`${file}: room "${room}" has no place`] : [];
  });
  const upward = edges.flatMap(({ file, target }) => {
    const layer = layerOf(file);
    const fromRoom = roomOf(file);
    const toRoom = roomOf(target);
    if (ROOMS[layer] === undefined || layerOf(target) !== layer || fromRoom === '.') return [];
    if (fromRoom === toRoom) return [];
    const from = tierOf(layer, fromRoom);
    const to = tierOf(layer, toRoom);
    return from !== undefined && to !== undefined && to < from
      ? []
      : [`${file} imports ${target} (${layer}: ${fromRoom} -> ${toRoom})`];
  });
  return [...loose, ...upward];
}

/** The imports of `binding` outside the rooms a lower layer may use. */
function bindingRoomViolations(edges: readonly ImportEdge[]): string[] {
  return edges.flatMap(({ file, target }) => {
    const rooms = BINDING_ROOMS_FOR[layerOf(file)];
    if (rooms === undefined || layerOf(target) !== 'binding') return [];
    return rooms.includes(roomOf(target))
      ? []
      : [`${file} imports ${target} (binding/${roomOf(target)})`];
  });
}

describe('source layering', () => {
  const files = sourceFiles(SRC);
  const paths = files.map((file) => relative(SRC, file));
  const edges = importEdges(files);

  it('sees every layer that exists today', () => {
    expect([...new Set(paths.map(layerOf))].sort()).toEqual(
      expect.arrayContaining([
        '.',
        'binding',
        'cli',
        'connections',
        'diagrams',
        'machines',
        'openapi',
        'operations',
        'wire',
      ]),
    );
  });

  it('imports only downwards', () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it('sees every room of wire and binding, each holding files', () => {
    const rooms = (layer: string) =>
      [...new Set(paths.filter((path) => layerOf(path) === layer).map(roomOf))].sort();
    expect(rooms('wire')).toEqual(['.', 'core', 'download', 'errors', 'http', 'mcp', 'read']);
    expect(rooms('binding')).toEqual(['.', 'contract', 'kernel', 'mounts']);
  });

  it('inside wire and binding, imports only rooms of a lower tier', () => {
    expect(roomViolations(edges, paths)).toEqual([]);
  });

  it('lets wire and openapi import from binding only its kernel', () => {
    expect(bindingRoomViolations(edges)).toEqual([]);
  });

  it('names every planted violation of the room rules, and passes the allowed imports', () => {
    const planted: ImportEdge[] = [
      { file: 'wire/core/a.ts', target: 'wire/http/b.js' },
      { file: 'wire/mcp/a.ts', target: 'wire/download/b.js' },
      { file: 'binding/kernel/a.ts', target: 'binding/contract/b.js' },
      { file: 'wire/errors/a.ts', target: 'binding/contract/b.js' },
      { file: 'openapi/a.ts', target: 'binding/index.js' },
      // Allowed: down a tier, inside a room, the layer's door, another layer.
      { file: 'wire/download/a.ts', target: 'wire/core/b.js' },
      { file: 'wire/http/a.ts', target: 'wire/http/b.js' },
      { file: 'wire/index.ts', target: 'wire/mcp/b.js' },
      { file: 'binding/mounts/a.ts', target: 'binding/kernel/b.js' },
      { file: 'machines/a.ts', target: 'binding/contract/b.js' },
    ];
    const plantedFiles = ['wire/index.ts', 'wire/stray.ts', 'wire/rpc/a.ts', 'wire/core/a.ts'];
    expect(roomViolations(planted, plantedFiles)).toEqual([
      'wire/stray.ts: outside every room',
      'wire/rpc/a.ts: room "rpc" has no place',
      'wire/core/a.ts imports wire/http/b.js (wire: core -> http)',
      'wire/mcp/a.ts imports wire/download/b.js (wire: mcp -> download)',
      'binding/kernel/a.ts imports binding/contract/b.js (binding: kernel -> contract)',
    ]);
    expect(bindingRoomViolations(planted)).toEqual([
      'wire/errors/a.ts imports binding/contract/b.js (binding/contract)',
      'openapi/a.ts imports binding/index.js (binding/.)',
    ]);
    expect(layerViolations([{ file: 'binding/kernel/a.ts', target: 'wire/core/b.js' }])).toEqual([
      'binding/kernel/a.ts imports wire/core/b.js (binding -> wire)',
    ]);
  });

  it('reads every form of import: from, a bare import and a dynamic one', () => {
    const text = [
      "import { a } from './a.js';",
      "export * from '../b.js';",
      "import './c.js';",
      "const d = await import('./d.js');",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js']);
  });

  it('keeps the diagrams generic: they import only `xstate` and each other', () => {
    const foreign = files
      .filter((file) => layerOf(relative(SRC, file)) === 'diagrams')
      .flatMap((file) =>
        importSpecifiers(readFileSync(file, 'utf8'))
          .filter((specifier) => specifier !== 'xstate' && !specifier.startsWith('./'))
          .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
      );
    expect(foreign).toEqual([]);
  });

  it('keeps the optional `ai` package out of the runtime code', () => {
    const offenders = files.filter((file) =>
      /from\s+'ai(\/[^']*)?'/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('keeps the Graphviz renderer (a dev dependency) out of the source: src/ only writes DOT', () => {
    const offenders = files.filter((file) => /from\s+'@viz-js\//.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });
});
