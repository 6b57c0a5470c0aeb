/**
 * undici, loaded on the first request rather than when the library is imported (decision 0048):
 * a host that imports the library and never sends a request, or sends its first one later, does
 * not pay undici's load (about a third of the library's import) at start-up. The one import stays
 * in `undici.ts`, between the snapshot and the restore of the global dispatcher, and runs when
 * {@link loadUndici} is first called; the snapshot is then taken at that moment, so a dispatcher
 * the host set after importing the library is the one kept.
 */
import type * as UndiciModule from './undici.js';

/** The undici classes the library makes agents with. */
export type Undici = typeof UndiciModule;

let loaded: Undici | undefined;
let loading: Promise<Undici> | undefined;

/** undici once {@link loadUndici} has resolved, else `undefined` (the request's hot path). */
export function undiciIfLoaded(): Undici | undefined {
  return loaded;
}

/**
 * Loads undici once for the process; every later call resolves with the same module. A failed
 * load is not kept: the next call tries again.
 */
export function loadUndici(): Promise<Undici> {
  loading ??= import('./undici.js').then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
