/**
 * What `mountAgent` and `mountMcp` take besides a tool array: a catalog whose tools change while
 * the host runs (the `LiveCatalog` of `watchConnections` has this shape), and how each mount
 * follows it (issue 47).
 */
import type { AnyRuntimeToolDefinition } from '../contract/runtime-tool.js';

/** A source of tools that change: its current tools, and word of each change. */
export interface ToolCatalogSource {
  /** The current definitions; the same array object until a change. */
  tools(): readonly AnyRuntimeToolDefinition[];
  /** Calls `listener` after each change; returns the unsubscribe. */
  on(event: 'change', listener: () => void): () => void;
}

/** What a mount takes: a fixed array of definitions, or a source that changes. */
export type MountableTools = readonly AnyRuntimeToolDefinition[] | ToolCatalogSource;

/** Whether `tools` is a changing source rather than a fixed array. */
export function isToolCatalogSource(tools: unknown): tools is ToolCatalogSource {
  return (
    typeof tools === 'object' &&
    tools !== null &&
    !Array.isArray(tools) &&
    typeof (tools as ToolCatalogSource).tools === 'function' &&
    typeof (tools as ToolCatalogSource).on === 'function'
  );
}

/** The definitions a mount starts from: the array, or the source's current tools. */
export function currentTools(tools: MountableTools): readonly AnyRuntimeToolDefinition[] {
  return isToolCatalogSource(tools) ? tools.tools() : tools;
}

/**
 * A record built from a source's tools that is rebuilt whenever they change, read through a
 * proxy: every read (a key, the keys, a lookup) sees the current tools, so a runner that reads
 * its tool set at each step (the AI SDK does) follows the catalog with no subscription to undo.
 * Each read also lets the source see it was read (a live catalog relists a stale connection
 * then). A rebuild that throws keeps the last good record. Built once here, so a bad definition
 * throws at mount.
 */
export function liveRecord<T extends object>(
  source: ToolCatalogSource,
  build: (tools: readonly AnyRuntimeToolDefinition[]) => T,
): T {
  let seen = source.tools();
  let current = build(seen);
  const now = (): T => {
    const tools = source.tools();
    if (tools === seen) return current;
    seen = tools;
    try {
      current = build(tools);
    } catch {
      // A changed catalog the mount refuses keeps the tools it had.
    }
    return current;
  };
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(now(), key),
    has: (_target, key) => Reflect.has(now(), key),
    ownKeys: () => Reflect.ownKeys(now()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(now(), key);
      // The proxy's own target is empty: every property it reports must be configurable.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    set: () => false,
    deleteProperty: () => false,
    defineProperty: () => false,
  });
}

/**
 * Keeps `server`'s registrations equal to a changing catalog's: after each change, a definition
 * that is gone is removed, a new or replaced one registered (the SDK server then tells its
 * connected 2025 client `notifications/tools/list_changed`), an unchanged one left alone. The
 * subscription ends when the server closes. A changed catalog the mount refuses keeps the tools
 * it had.
 */
export function followCatalog<R extends { readonly definition: AnyRuntimeToolDefinition }>(
  server: { readonly server: { onclose?: (() => void) | undefined } },
  source: ToolCatalogSource,
  surfaceOf: (tools: readonly AnyRuntimeToolDefinition[]) => readonly R[],
  register: (registration: R) => unknown,
): void {
  const mounted = new Map<string, { definition: AnyRuntimeToolDefinition; handle: unknown }>();
  const sync = (registrations: readonly R[]): void => {
    const names = new Set<string>();
    for (const registration of registrations) {
      const { name } = registration.definition;
      names.add(name);
      const known = mounted.get(name);
      if (known?.definition === registration.definition) continue;
      if (known !== undefined) removeRegistration(known.handle);
      mounted.set(name, { definition: registration.definition, handle: register(registration) });
    }
    for (const [name, known] of mounted) {
      if (names.has(name)) continue;
      removeRegistration(known.handle);
      mounted.delete(name);
    }
  };
  sync(surfaceOf(source.tools()));
  const unsubscribe = source.on('change', () => {
    try {
      sync(surfaceOf(source.tools()));
    } catch {
      // A changed catalog the mount refuses keeps the tools it had.
    }
  });
  const low = server.server;
  const previous = low.onclose;
  low.onclose = () => {
    unsubscribe();
    previous?.();
  };
}

/** Removes one registration (both SDK lines return a handle with `remove()`). */
function removeRegistration(handle: unknown): void {
  (handle as { remove?: () => void } | undefined)?.remove?.();
}
