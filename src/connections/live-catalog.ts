/**
 * `watchConnections`: a catalog that stays true while the host runs (issue 47, decision 0047).
 * Each connection holds its last good listing; it is listed again, one relisting at a time, when
 * its TTL has passed and the catalog is read or one of its tools used, when its server says the
 * list changed, when a call finds a tool gone, on the interval, or on `refresh`. A relisting that
 * fails keeps the last good listing and is reported.
 */
import type { AnyRuntimeToolDefinition } from '../binding/index.js';
import { describeCatalog, recordMount } from './catalog.js';
import { startListening } from './live-catalog-listen.js';
import {
  DEFAULT_MIN_REFRESH_INTERVAL_MS,
  diffTools,
  isStale,
  keepUnchanged,
  MAX_GATEWAY_TTL_MS,
  reasonToTell,
  remainingTtl,
  waitBeforeRelisting,
} from './live-catalog-policy.js';
import { type Listing, listConnection, newSlot, type Slot } from './live-catalog-slot.js';
import type {
  CatalogChange,
  CatalogChangeReason,
  CatalogDescription,
  LiveCatalog,
  WatchConnectionsOptions,
} from './live-catalog-types.js';
import {
  type CheckedMountOptions,
  checkCountOption,
  checkedSurface,
  checkMountOptions,
  mountBudgetOf,
} from './mount.js';
import type { ConnectionDefinition } from './types.js';

const checkPeriod = (option: string, value: unknown) =>
  checkCountOption('watchConnections', option, value);

/**
 * Discovers the connections' tools as `mountConnections` does (and rejects as it does), then keeps
 * them true: see {@link LiveCatalog}. `close()` stops its timers and streams.
 */
export async function watchConnections(
  connections: readonly ConnectionDefinition[],
  options: WatchConnectionsOptions = {},
): Promise<LiveCatalog> {
  const checked = checkMountOptions(options);
  const defaultTtlMs = checkPeriod('defaultTtlMs', options.defaultTtlMs);
  const refreshInterval = checkPeriod('refreshInterval', options.refreshInterval);
  const floorMs =
    checkPeriod('minRefreshIntervalMs', options.minRefreshIntervalMs) ??
    DEFAULT_MIN_REFRESH_INTERVAL_MS;
  const catalog = new Catalog(checked, options, defaultTtlMs, floorMs);
  try {
    for (const connection of connections) await catalog.add(connection);
    catalog.publish();
  } catch (error) {
    await catalog.close();
    throw error;
  }
  catalog.start(refreshInterval, options.listen === true);
  return catalog.handle();
}

class Catalog {
  readonly #slots: Slot[] = [];
  readonly #listeners = new Set<(change: CatalogChange) => void>();
  readonly #stop = new AbortController();
  #published: readonly AnyRuntimeToolDefinition[] = Object.freeze([]);
  #closed = false;

  constructor(
    readonly checked: CheckedMountOptions,
    readonly options: WatchConnectionsOptions,
    readonly defaultTtlMs: number | undefined,
    readonly floorMs: number,
  ) {}

  /** The first listing of one connection; rejects with its failure. */
  async add(connection: ConnectionDefinition): Promise<void> {
    const slot = newSlot(connection);
    const listing = await this.#list(slot);
    Object.assign(slot, listing);
    slot.lastRefresh = { at: slot.listedAt, reason: 'discovery', outcome: 'ok' };
    this.#slots.push(slot);
  }

  /** Starts each connection's interval and listen stream. */
  start(refreshInterval: number | undefined, listen: boolean): void {
    for (const slot of this.#slots) {
      if (refreshInterval !== undefined && refreshInterval > 0) {
        slot.interval = setInterval(() => this.#ask(slot, 'interval'), refreshInterval);
        slot.interval.unref?.();
      }
      if (listen) {
        slot.listen = startListening(slot.connection, {
          signal: this.#stop.signal,
          ...(this.options.observe === undefined ? {} : { observe: this.options.observe }),
          spoken: slot.spoken,
          onChanged: () => this.#ask(slot, 'list-changed'),
        });
      }
    }
  }

  /** Lists one connection (see {@link listConnection}); a tool's use and failure reach back here. */
  #list(slot: Slot): Promise<Listing> {
    return listConnection(slot, {
      checked: this.checked,
      options: this.options,
      defaultTtlMs: this.defaultTtlMs,
      signal: this.#stop.signal,
      toolUsed: () => {
        if (this.#isStale(slot)) this.#ask(slot, 'ttl');
      },
      listingStale: () => this.#ask(slot, 'unknown-tool'),
    });
  }

  #isStale(slot: Slot): boolean {
    return isStale(slot.listedAt, slot.ttlMs, Date.now());
  }

  /**
   * Asks for a relisting nobody named: shared with one in flight (run again after it, for a
   * signal that may postdate its answer), and at least the floor after the last one started.
   */
  #ask(slot: Slot, reason: CatalogChangeReason): void {
    if (this.#closed) return;
    if (slot.inflight !== undefined) {
      // A TTL read is answered by the listing in flight; a signal may postdate its answer.
      if (reason !== 'ttl') slot.again = reasonToTell(slot.again, reason);
      return;
    }
    if (slot.deferred !== undefined) {
      slot.pending = reasonToTell(slot.pending, reason);
      return;
    }
    const wait = waitBeforeRelisting(slot.lastStartedAt, this.floorMs, Date.now());
    if (wait === 0) {
      void this.#relist(slot, reason);
      return;
    }
    slot.pending = reason;
    slot.deferred = setTimeout(() => {
      const pending = slot.pending ?? reason;
      slot.deferred = undefined;
      slot.pending = undefined;
      if (!this.#closed) void this.#relist(slot, pending);
    }, wait);
    slot.deferred.unref?.();
  }

  /** Lists `slot` again now, or joins the relisting in flight; never rejects. */
  #relist(slot: Slot, reason: CatalogChangeReason): Promise<void> {
    if (slot.inflight !== undefined) return slot.inflight;
    slot.lastStartedAt = Date.now();
    const run = this.#relistOnce(slot, reason).finally(() => {
      slot.inflight = undefined;
      const again = slot.again;
      slot.again = undefined;
      if (again !== undefined && !this.#closed) this.#ask(slot, again);
    });
    slot.inflight = run;
    return run;
  }

  async #relistOnce(slot: Slot, reason: CatalogChangeReason): Promise<void> {
    try {
      const listed = await this.#list(slot);
      if (this.#closed) return;
      const listing = { ...listed, tools: keepUnchanged(slot.tools, listed.tools) };
      const surface = this.#surfaceWith(slot, listing.tools);
      const diff = diffTools(slot.tools, listing.tools);
      Object.assign(slot, listing);
      slot.lastRefresh = { at: slot.listedAt, reason, outcome: 'ok' };
      if (diff.added.length + diff.removed.length + diff.changed.length === 0) return;
      this.#publish(surface);
      this.#emit({ connection: slot.name, ...diff, reason });
    } catch (error) {
      if (this.#closed) return;
      const failure = error instanceof Error ? error : new Error(String(error));
      slot.lastRefresh = { at: Date.now(), reason, outcome: 'failed', error: failure };
      this.#emit({
        connection: slot.name,
        added: [],
        removed: [],
        changed: [],
        reason,
        error: failure,
      });
    }
  }

  /** The whole surface with `slot`'s tools replaced, checked (collisions, budget). */
  #surfaceWith(slot: Slot, tools: readonly AnyRuntimeToolDefinition[]): AnyRuntimeToolDefinition[] {
    const all = this.#slots.flatMap((each) => (each === slot ? tools : each.tools));
    return checkedSurface(all, this.checked);
  }

  /** Publishes the surface of the first discovery. */
  publish(): void {
    this.#publish(
      checkedSurface(
        this.#slots.flatMap((slot) => slot.tools),
        this.checked,
      ),
    );
  }

  #publish(surface: AnyRuntimeToolDefinition[]): void {
    const published = Object.freeze(surface);
    recordMount(published, {
      connections: this.#slots.map((slot) => slot.name),
      skipped: Object.freeze(this.#slots.flatMap((slot) => slot.skipped)),
      budget: mountBudgetOf(this.checked),
    });
    this.#published = published;
  }

  #emit(change: CatalogChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch {
        // A failing listener must not keep the change from the others.
      }
    }
  }

  tools(): readonly AnyRuntimeToolDefinition[] {
    for (const slot of this.#slots) if (this.#isStale(slot)) this.#ask(slot, 'ttl');
    return this.#published;
  }

  async refresh(connection?: string): Promise<void> {
    const slots =
      connection === undefined
        ? this.#slots
        : this.#slots.filter((slot) => slot.name === connection);
    if (connection !== undefined && slots.length === 0) {
      throw new RangeError(`LiveCatalog.refresh: no connection is named "${connection}"`);
    }
    if (this.#closed) return;
    await Promise.all(
      slots.map(async (slot) => {
        // A relisting in flight may have started before what the caller knows: list again after.
        if (slot.inflight !== undefined) await slot.inflight;
        await this.#relist(slot, 'manual');
      }),
    );
  }

  /** The caching hint of the catalog as one listing: see {@link catalogCacheHint}. */
  cacheHint(): { readonly ttlMs: number; readonly cacheScope: 'public' | 'private' } {
    const now = Date.now();
    let ttlMs = MAX_GATEWAY_TTL_MS;
    for (const slot of this.#slots) {
      if (slot.ttlMs !== undefined)
        ttlMs = Math.min(ttlMs, remainingTtl(slot.listedAt, slot.ttlMs, now));
    }
    const shared = this.#slots.every((slot) => slot.cacheScope === 'public');
    return { ttlMs, cacheScope: shared ? 'public' : 'private' };
  }

  describe(): CatalogDescription {
    const now = Date.now();
    const catalog = describeCatalog(this.#published);
    const byName = new Map(this.#slots.map((slot) => [slot.name, slot]));
    return {
      ...catalog,
      connections: catalog.connections.map((entry) => {
        const slot = byName.get(entry.connection);
        if (slot === undefined) {
          return { ...entry, ageMs: 0, lastRefresh: { at: 0, reason: 'discovery', outcome: 'ok' } };
        }
        return {
          ...entry,
          ageMs: now - slot.listedAt,
          ...(slot.ttlMs === undefined ? {} : { ttlMs: slot.ttlMs }),
          lastRefresh: slot.lastRefresh,
          ...(slot.listen === undefined ? {} : { listen: slot.listen.state() }),
        };
      }),
    };
  }

  on(listener: (change: CatalogChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop.abort();
    const waits: Promise<void>[] = [];
    for (const slot of this.#slots) {
      if (slot.deferred !== undefined) clearTimeout(slot.deferred);
      if (slot.interval !== undefined) clearInterval(slot.interval);
      slot.deferred = undefined;
      slot.interval = undefined;
      if (slot.listen !== undefined) waits.push(slot.listen.done);
      if (slot.inflight !== undefined) waits.push(slot.inflight);
    }
    this.#listeners.clear();
    await Promise.allSettled(waits);
  }

  handle(): LiveCatalog {
    const handle: LiveCatalog = {
      tools: () => this.tools(),
      on: (event, listener) => {
        if (event !== 'change') throw new RangeError(`LiveCatalog.on: unknown event "${event}"`);
        return this.on(listener);
      },
      refresh: (connection) => this.refresh(connection),
      describe: () => this.describe(),
      close: () => this.close(),
    };
    catalogs.set(handle, this);
    return handle;
  }
}

const catalogs = new WeakMap<LiveCatalog, Catalog>();

/**
 * The caching hint a gateway serving `catalog` gives its own clients for `tools/list` (MCP
 * 2026-07-28 `ttlMs` and `cacheScope`): fresh for the smallest time any connection's listing
 * has left (a minute at most, and none left for a listing already stale), `public` only when
 * every upstream listing was. A v2 gateway passes it to the server it builds per request:
 * `new McpServer(info, { cacheHints: { 'tools/list': catalogCacheHint(catalog) } })`.
 */
export function catalogCacheHint(catalog: LiveCatalog): {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
} {
  const known = catalogs.get(catalog);
  if (known === undefined) {
    throw new TypeError('catalogCacheHint takes a catalog made by watchConnections');
  }
  return known.cacheHint();
}
