/**
 * Evaluated just before undici (see `undici.ts`): makes sure Node's own global dispatcher exists,
 * and remembers what is there, so the library's import of undici changes nothing process-wide.
 */

/** The symbols under which every undici copy, Node's own included, keeps the global dispatcher. */
export const GLOBAL_DISPATCHER_SYMBOLS = [
  Symbol.for('undici.globalDispatcher.1'),
  Symbol.for('undici.globalDispatcher.2'),
] as const;

// With no global dispatcher yet, Node's own fetch sets its own the first time it loads, and only
// then: a property undici defined and then left empty would break it. Loading Node's fetch now
// (reading `Headers` does) sets exactly the dispatcher Node would use anyway, which undici then
// leaves in place.
if (
  GLOBAL_DISPATCHER_SYMBOLS.every(
    (symbol) => (globalThis as Record<symbol, unknown>)[symbol] === undefined,
  )
) {
  void globalThis.Headers;
}

/** The values the host had before undici was imported (`undefined`: none). */
export const globalDispatchersBefore: readonly unknown[] = GLOBAL_DISPATCHER_SYMBOLS.map(
  (symbol) => (globalThis as Record<symbol, unknown>)[symbol],
);
