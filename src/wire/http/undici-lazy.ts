/**
 * The only module that loads undici, and only on the first request (decision 0048): a host that
 * imports the library and never sends a request, or sends its first one later, does not pay
 * undici's load at start-up. Loading it changes nothing process-wide: undici makes itself the
 * global dispatcher when none is set (which would move the host's own `fetch` onto undici 7), so
 * the load runs between a snapshot and a restore of the global dispatcher, in one function whose
 * order is the point of this file. The library never uses the global dispatcher: every request
 * names its own agent.
 */
import type * as UndiciModule from 'undici';

export type { Agent, Dispatcher } from 'undici';

/** The undici classes the library makes agents with. */
export type Undici = Pick<typeof UndiciModule, 'Agent' | 'EnvHttpProxyAgent' | 'ProxyAgent'>;

/** The symbols under which every undici copy, Node's own included, keeps the global dispatcher. */
const GLOBAL_DISPATCHER_SYMBOLS = [
  Symbol.for('undici.globalDispatcher.1'),
  Symbol.for('undici.globalDispatcher.2'),
] as const;

const globals = globalThis as Record<symbol, unknown>;

let loading: Promise<Undici> | undefined;

/**
 * Makes sure Node's own global dispatcher exists, and remembers what is there. With none yet,
 * Node's fetch sets its own the first time it loads, and only then: a property undici defined and
 * then left empty would break it. Loading Node's fetch now (reading `Headers` does) sets exactly
 * the dispatcher Node would use anyway, which undici then leaves in place.
 */
function snapshotGlobalDispatchers(): readonly unknown[] {
  if (GLOBAL_DISPATCHER_SYMBOLS.every((symbol) => globals[symbol] === undefined)) {
    void globalThis.Headers;
  }
  return GLOBAL_DISPATCHER_SYMBOLS.map((symbol) => globals[symbol]);
}

/** Puts back what the snapshot saw wherever one of the library's agents took its place. */
function restoreGlobalDispatchers(before: readonly unknown[], agent: Undici['Agent']): void {
  GLOBAL_DISPATCHER_SYMBOLS.forEach((symbol, index) => {
    if (globals[symbol] !== before[index] && globals[symbol] instanceof agent) {
      globals[symbol] = before[index];
    }
  });
}

async function loadOnce(): Promise<Undici> {
  const before = snapshotGlobalDispatchers();
  const undici = await import('undici');
  restoreGlobalDispatchers(before, undici.Agent);
  return undici;
}

/**
 * Loads undici once for the process; every later call resolves with the same module. A failed
 * load is not kept: the next call tries again.
 */
export function loadUndici(): Promise<Undici> {
  loading ??= loadOnce().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
