/**
 * Evaluated just after undici (see `undici.ts`): undici sets itself as the process's global
 * dispatcher when none was set, which would move the host's own `fetch` onto undici 7. When the
 * value now there is an agent of this undici and the host had another (or none), the host's is
 * put back (the property undici defines stays writable). A dispatcher Node's own fetch set in the
 * meantime is Node's, and stays.
 */

import { Agent } from 'undici';
import { GLOBAL_DISPATCHER_SYMBOLS, globalDispatchersBefore } from './undici-global-snapshot.js';

GLOBAL_DISPATCHER_SYMBOLS.forEach((symbol, index) => {
  const global = globalThis as Record<symbol, unknown>;
  const before = globalDispatchersBefore[index];
  if (global[symbol] !== before && global[symbol] instanceof Agent) global[symbol] = before;
});
